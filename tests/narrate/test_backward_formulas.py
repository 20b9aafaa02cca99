"""Each backward panel's formula is the formula of the gradient it shows: it opens with
∂L/∂(the panel's own symbol), made by the step that read it, not the next gradient."""

import re

import pytest

import handformer
from handformer.narrate import build, names


@pytest.fixture(scope="module")
def sections():
    tape = handformer.walk(backward=True)
    return tape, [s for s in build(tape, "en") if s.id.startswith("grad.") and s.phase ==
                  "backward" and s.id[5:] in tape.index and s.id != "grad.embed.weight.tied"]


def test_every_backward_panel_opens_with_its_own_gradient(sections):
    tape, panels = sections
    assert len(panels) > 20
    for s in panels:
        name = s.id[5:]
        own = r"\frac{\partial L}{\partial " + names.symbol(name)
        assert s.formula.startswith(own), (name, s.formula[:80])


def test_a_value_read_twice_shows_one_sum_with_a_term_per_use(sections):
    tape, panels = sections
    twice = [s for s in panels if "was read by" in " ".join(s.paragraphs)]
    assert twice, "the residual stream is read by the sublayer and by the residual sum"
    for s in twice:
        k = int(re.search(r"was read by (\d+) steps", " ".join(s.paragraphs)).group(1))
        first = s.formula.split(r",\quad ")[0]
        own = r"\frac{\partial L}{\partial " + names.symbol(s.id[5:])
        assert first.startswith(own) and first.count(" + ") == k - 1 >= 1, (s.id, first)
