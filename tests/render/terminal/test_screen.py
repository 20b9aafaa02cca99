"""render.terminal: the tutorial walkthrough as text (golden at width 100), elision, widths."""

import os
import re

import numpy as np
import pytest

from handformer import api, narrate
from handformer.narrate.document import Matrix, Section
from handformer.narrate.unicode_math import to_text
from handformer.render.terminal.screen import render_text
from support.paths import GOLDEN as GOLDEN_ROOT

GOLDEN = GOLDEN_ROOT / "terminal" / "tutorial_en_100.txt"


@pytest.fixture(scope="module")
def tape():
    return api.walk()


@pytest.fixture(scope="module")
def text(tape):
    return render_text(narrate.build(tape), precision=3, width=100)


def cell_width(line):
    from rich.cells import cell_len

    return cell_len(line)


def test_golden_tutorial_walkthrough_at_width_100(text):
    if os.environ.get("HANDFORMER_REGEN_GOLDEN") == "1":
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8"), \
        "terminal output changed; if on purpose, rerun with HANDFORMER_REGEN_GOLDEN=1"


def test_the_walkthrough_tells_the_facts_a_learner_checks(text, tape):
    assert text.count("\nStep ") == len([s for s in narrate.build(tape) if s.prefix])
    assert "N = |set(words)| = 23" in text
    assert "0.540" in text and "0.999" in text  # D6, ours and the tutorial's
    for code in ("D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "D11", "D14", "D16",
                 "D17", "D18"):
        assert f"─  {code}  ─" in text, code
    q = tape["encoder.0.self_attn.q"][0]
    row = "  ".join(f"{v:.3f}" for v in q[0])
    assert re.search(r"▸when +" + re.escape(row), text)  # the worked row, marked
    assert "\\" not in text and "$" not in text  # every formula reached the reader as text


def test_lines_fit_the_width(tape):
    sections = narrate.build(tape, "zh")
    for width in (80, 100):
        for line in render_text(sections, width=width).splitlines():
            assert cell_width(line) <= width, line


def test_output_file_is_plain_text(tape, tmp_path, monkeypatch):
    from handformer.cli import main

    sections = narrate.select(narrate.build(tape), "5")
    out = tmp_path / "walk.txt"
    monkeypatch.setenv("FORCE_COLOR", "1")  # a file gets no escapes, whatever the terminal
    with pytest.raises(SystemExit) as done:
        main(["walk", "--steps", "5", "--precision", "2", "-o", str(out)])
    assert done.value.code == 0
    written = out.read_text(encoding="utf-8")
    assert "\x1b[" not in written
    assert written == render_text(sections, precision=2, width=100)
    assert re.search(r"\nyou +0\.84 +0\.54 +0\.05 ", written)  # the PE table at precision 2


def test_large_matrices_are_elided_with_their_shape():
    value = np.arange(20 * 30, dtype=float).reshape(20, 30) / 7
    m = Matrix("big", "W", value, [f"r{i}" for i in range(20)], [f"c{j}" for j in range(30)])
    section = Section("big", "9", "Big", ["A big matrix."], equation=[m])
    text = render_text([section], width=100)
    assert "W  (20×30)" in text and "⋯" in text and "⋮" in text
    assert "r0 " in text and "r19" in text and "r10 " not in text
    assert f"{value[19, 29]:.3f}" in text and f"{value[10, 15]:.3f}" not in text
    narrow = render_text([section], width=60)
    assert max(cell_width(line) for line in narrow.splitlines()) <= 60
    assert "c29" in narrow


def test_pattern_infinities_and_negative_zero():
    value = np.array([[0.5, -np.inf], [-0.0001, 1.0]])
    m = Matrix("p", "S'", value, ["a", "b"], ["a", "b"], kind="pattern")
    text = render_text([Section("p", "7", "Mask", ["x"], equation=[m])], precision=3)
    assert "-∞" in text and "-0.000" not in text and "0.000" in text


@pytest.mark.parametrize("latex, expected", [
    (r"S = \frac{Q K^\top}{\sqrt{d_k}}", "S = (Q Kᵀ)/√dₖ"),
    (r"\theta \leftarrow \theta - 0.1\, g", "θ ← θ - 0.1 g"),
    (r"\frac{\partial L}{\partial W} = X^\top \frac{\partial L}{\partial Y}", "∂L/∂W = Xᵀ ∂L/∂Y"),
    (r"A \odot B", "A ⊙ B"),
])
def test_latex_becomes_readable_text(latex, expected):
    assert to_text(latex) == expected


def test_every_op_formula_converts_without_latex_left():
    from handformer.engine.ops import OPS

    for op in OPS.values():
        for grad in (False, True):
            text = to_text(op.latex({}, grad=grad).replace("$", ""))
            assert not re.search(r"\\[a-zA-Z]", text), (op.name, text)


def test_cell_widths_by_hand():
    from handformer.render.terminal.ansi import cells, fit

    assert cells("abc") == 3 and cells("中文") == 4 and cells("e\u0301") == 1
    assert cells("“你好”，x") == 2 + 4 + 2 + 1  # curly quotes 1 cell, the full-width comma 2
    assert fit("中文字", 5) == "中文 " and fit("ab", 4) == "ab  "


def test_one_cell_ranges_agree_with_unicodedata():
    import unicodedata

    from handformer.render.terminal.ansi import ONE_CELL_RANGES

    for a, b in ONE_CELL_RANGES:
        for code in range(a, b + 1):
            char = chr(code)
            if unicodedata.category(char) == "Cn":  # unassigned: no width to agree on
                continue
            assert unicodedata.east_asian_width(char) not in "WF", hex(code)
            assert unicodedata.category(char) not in ("Mn", "Me", "Mc", "Cf"), hex(code)


def test_colours_on_a_terminal_and_no_color(tape, monkeypatch, capsys):
    from handformer.cli import show_sections

    def render(sections, width):
        show_sections(sections, 3, width)

    sections = narrate.select(narrate.build(tape), "4")
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    render(sections, width=100)
    coloured = capsys.readouterr().out
    assert f"\x1b[1;34mStep {sections[0].panel} · Compute the embedding\x1b[0m \x1b[34m──" \
        in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == render_text(sections, width=100)
    monkeypatch.setenv("NO_COLOR", "1")
    render(sections, width=100)
    plain_colours = capsys.readouterr().out
    assert f"\x1b[1mStep {sections[0].panel}" in plain_colours and "\x1b[34m" not in plain_colours
    monkeypatch.delenv("FORCE_COLOR")
    render(sections, width=100)  # captured output is not a terminal: no escapes
    assert "\x1b[" not in capsys.readouterr().out


def test_chinese_panels_line_up(tape):
    from handformer.render.terminal.ansi import cells

    text = render_text(narrate.build(tape, "zh"), width=80)
    boxed = [line for line in text.splitlines() if line.startswith("│")]
    assert boxed and all(cells(line) == 80 and line.endswith("│") for line in boxed)
