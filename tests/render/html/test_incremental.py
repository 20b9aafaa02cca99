"""Only the panels that changed: what a reader holding the former panels is sent, merged with
what it holds, is exactly the full render of the new run, and nothing is sent when nothing
changed."""

from __future__ import annotations

import pytest

import handformer
from handformer import i18n
from handformer.narrate import build
from handformer.render.html import fragments, incremental


def _sections(**kw):
    tape = handformer.walk(**kw)
    return {code: build(tape, code) for code in i18n.languages()}


def _merged(old: dict, new: dict) -> str:
    return "".join(new["panels"].get(i) or old["panels"][i] for i in new["order"])


@pytest.mark.parametrize(("before", "after"), [
    ({"src": "you play the game"}, {"src": "you win the game"}),  # numbers move, not the frame
    ({"src": "you play the game"}, {"src": "you play the game", "heads": 2, "d_model": 8}),
    ({"tgt": "you win or you die"}, {"tgt": "you die"}),  # fewer rows: other sizes
])
def test_the_held_panels_and_the_sent_ones_are_the_full_render(before, after):
    first = incremental.changed_panels(_sections(**before), {})
    assert "".join(first["panels"][i] for i in first["order"]) == fragments.panels(_sections(**before))["panels"]
    new_sections = _sections(**after)
    second = incremental.changed_panels(new_sections, first["digests"])
    assert _merged(first, second) == fragments.panels(new_sections)["panels"]
    kept = [i for i in second["order"] if i not in second["panels"]]
    assert kept  # the dataset and vocabulary panels at least are not sent again
    assert second["toc"] == fragments.panels(new_sections)["toc"]


def test_nothing_is_sent_again_for_the_same_run_and_only_what_is_asked():
    first = incremental.changed_panels(_sections(src="you play the game"), {})
    again = incremental.changed_panels(_sections(src="you play the game"), first["digests"])
    assert again["panels"] == {} and again["digests"] == first["digests"]
    only = first["order"][5:7]  # the panels in view: sent first, the later ones not laid out
    new_sections = _sections(src="you win the game")
    part = incremental.changed_panels(new_sections, first["digests"], only)
    assert set(part["panels"]) == set(only) and part["toc"] is None
    whole = incremental.changed_panels(new_sections, {})
    assert all(part["panels"][i] == whole["panels"][i] for i in only)
    assert all(part["digests"][i] == whole["digests"][i] for i in only)
