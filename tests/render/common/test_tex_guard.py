"""render/tex_guard.py: a loaded tape's symbols checked, Markdown math made inert."""

from __future__ import annotations

import re

import pytest

import handformer
from handformer.errors import HandformerError
from handformer.files.tape_json import dumps, loads
from handformer.narrate import build
from handformer.render import markdown
from handformer.render.common.tex_guard import check_symbols, markdown_math, symbol_problem
from handformer.render.markdown import code_span


@pytest.mark.parametrize("symbol", ["W^{Q(1)}", r"\mathrm{MHA}", r"\sqrt{32}", "S'^{(1)}",
                                    r"K^{(1)\top}", r"S^{\prime(2)}", r"\alpha_{i}", "X_{tok}'"])
def test_the_engines_symbols_are_symbols(symbol):
    assert symbol_problem(symbol) is None


@pytest.mark.parametrize("value, reason", [
    (r"\text{<svg/onload=alert(1)>}", "holds '<' '>'"),
    (r"\href{javascript:alert(1)}{x}", "holds ':'"),
    (r"\textbf{x}", r"uses \textbf"),
    (r"\style{x}{y}", r"uses \style"),
    ("x}{", "has unbalanced braces"),
    ("a\x1b[31m", r"holds '\x1b' '['"),
    (5, "is not a string"),
    ("A" * 81, "is longer than 80 characters"),
])
def test_hostile_symbols_are_told_why(value, reason):
    assert symbol_problem(value).startswith(reason)


def test_a_symbol_name_the_op_does_not_fill_is_refused():
    check_symbols("enc.q", "head_proj", {"out": "Q", "x": "X", "w": "W^Q", "b": None})
    with pytest.raises(HandformerError, match=r"op 'head_proj' has no symbol 'onload'"):
        check_symbols("enc.q", "head_proj", {"onload": "Q"})
    with pytest.raises(HandformerError, match=r"op 'input' has no symbol 'x'"):
        check_symbols("src.ids", "input", {"x": "X"})


def test_a_saved_tape_loads_with_its_symbols():
    tape = handformer.walk(backward=True)
    again = loads(dumps(tape))
    assert [s.symbols for s in again.steps] == [s.symbols for s in tape.steps]


@pytest.mark.parametrize("tex, inert", [
    (r"\href{javascript:alert(1)}{x}", r"\backslash\mathrm{href}{javascript:alert(1)}{x}"),
    (r"\class{a}{b} \htmlStyle{c}{d}", r"\backslash\mathrm{class}{a}{b} \backslash\mathrm{htmlStyle}{c}{d}"),
    ("<img src=x onerror=alert(1)>", r"\lt img src=x onerror=alert(1)\gt "),
    ("[x](javascript:alert(1)) [y] [z]: w", r"[x\rbrack (javascript:alert(1)) [y\rbrack  [z\rbrack : w"),
    ("a&lt;b & c", r"a\&lt;b & c"),
    ("$$ x", r"\$\$ x"),
    ("a\n\n<b>", r"a  \lt b\gt "),
    (r"\\](x) \{ \$", r"\\\rbrack (x) \{ \$"),
])
def test_markdown_math_is_inert(tex, inert):
    assert markdown_math(tex) == inert


def test_markdown_math_leaves_our_formulas_as_they_are():
    """Over the tutorial with gradients, the small preset and Chinese: no command is spelt out,
    and the guard changes nothing more when run again (only a > became \\gt)."""
    seen = []
    for tape in (handformer.walk(backward=True), handformer.walk(preset="small")):
        for lang in ("en", "zh"):
            text = markdown.render_sections(build(tape, lang), lang=lang)
            seen += re.findall(r"^\$\$\n(.*?)\n\$\$$", text, flags=re.S | re.M)
    assert len(seen) > 200
    for tex in seen:
        assert r"\backslash\mathrm{" not in tex and markdown_math(tex) == tex


@pytest.mark.parametrize("text, span", [
    ("encoder.0.q", "`encoder.0.q`"),
    ("a`<img src=x onerror=alert(1)>`", "`` a`<img src=x onerror=alert(1)>` ``"),
    ("x``y\nz", "```x``y z```"),
])
def test_code_spans_hold_any_name(text, span):
    assert code_span(text) == span
