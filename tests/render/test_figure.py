"""Figures for articles: one step's panel as SVG or PNG, Chinese labels, and the loss curve."""

from __future__ import annotations

import re
import warnings
import xml.etree.ElementTree as ET

import pytest

import handformer
from handformer.cli import main
from handformer.errors import HandformerError
from handformer.render.figure import (
    find_section,
    formula_text,
    loss_curve,
    plot_format,
    render_figure,
)

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def tape():
    return handformer.walk()


@pytest.mark.slow
def test_svg_of_a_step(tape):
    data = render_figure(tape, "decoder.0.self_attn.head.0.pattern", fmt="svg")
    root = ET.fromstring(data)
    assert root.tag.endswith("svg")
    assert len(root.findall(".//{http://www.w3.org/2000/svg}path")) > 50  # glyphs and cells
    again = render_figure(tape, "decoder.0.self_attn.head.0.pattern", fmt="svg")
    assert again == data  # no dates or random ids: reproducible


def test_png_in_chinese_uses_the_cjk_font(tape):
    from matplotlib.font_manager import FontProperties, findfont

    assert "NotoSansCJK" in findfont(FontProperties(family="Noto Sans CJK SC"),
                                     fallback_to_default=False).replace("-", "")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        data = render_figure(tape, "encoder.0.self_attn.head.0.scores", fmt="png", lang="zh")
    assert not [w for w in caught if "missing from" in str(w.message)]  # every glyph found
    assert data.startswith(PNG) and len(data) > 20_000


def test_chinese_inside_a_formula_is_drawn_in_the_cjk_font(tape, caplog):
    r"""中文's vocabulary step has the formula N = |\text{不同词的集合}| = …: each character is
    the CJK font's own glyph (its index read from the font file), with no empty-box warning;
    an English figure after it draws its formulas in DejaVu Sans again."""
    from matplotlib.font_manager import fontManager
    from matplotlib.ft2font import FT2Font

    face = next(f for f in fontManager.ttflist if f.name == "Noto Sans CJK SC"
                and f.weight in (400, "normal", "regular"))
    cjk = FT2Font(face.fname, face_index=getattr(face, "index", 0))
    with caplog.at_level("WARNING"):
        svg = render_figure(tape, "vocabulary", fmt="svg", lang="zh").decode()
    assert not [r for r in caplog.records if "glyph" in r.getMessage()]
    ids = set(re.findall(r'id="([^"]+)"', svg))
    for char in "不同词的集合":
        assert f"{cjk.postscript_name}-{cjk.get_char_index(ord(char)):x}" in ids, char
    english = render_figure(tape, "vocabulary", fmt="svg", lang="en").decode()
    assert not any(i.startswith("NotoSansCJK") for i in re.findall(r'id="([^"]+)"', english))


def test_unknown_step_names_valid_ones(tape):
    with pytest.raises(HandformerError, match=r"no step named 'nope'.*src_embed"):
        render_figure(tape, "nope")
    from handformer.narrate import build

    with pytest.raises(HandformerError, match="--step"):
        find_section(build(tape, "en"), None)


def test_cli_figure(tmp_path, capsys):
    out = tmp_path / "pos.png"
    with pytest.raises(SystemExit) as done:
        main(["walk", "--format", "png", "--step", "src_embed.pos", "-o", str(out)])
    assert done.value.code == 0 and out.read_bytes().startswith(PNG)
    with pytest.raises(SystemExit) as done:
        main(["walk", "--format", "svg", "--step", "no.such.step", "-o", str(tmp_path / "a.svg")])
    assert done.value.code == 2
    assert "error: no step named 'no.such.step'" in capsys.readouterr().err


def test_formula_in_mathtext_or_plain_text_with_a_warning(capsys):
    assert formula_text(r"S = \frac{Q K^\top}{\sqrt{d_k}}").startswith("$")
    cases = r"x = \begin{cases} a & b \\ c & d \end{cases}"  # mathtext has no cases: rewritten
    assert formula_text(cases) == r"$x = \left\{\ a \  b;\ \ c \  d\right.$"
    assert capsys.readouterr().err == ""
    bad = r"y = \frac{a}{"
    assert formula_text(bad, "step demo.y") == bad
    assert "step demo.y" in capsys.readouterr().err


def test_loss_curve():
    history = [{"epoch": 1, "loss": 3.2, "val_loss": 3.4}, {"epoch": 2, "loss": 2.0},
               {"epoch": 3, "loss": 1.1, "val_loss": 1.9}]
    assert loss_curve(history, plot_format("loss.png")).startswith(PNG)
    assert ET.fromstring(loss_curve(history, plot_format("LOSS.SVG"))).tag.endswith("svg")
    with pytest.raises(HandformerError, match=".svg or .png"):
        plot_format("loss.pdf")
    with pytest.raises(HandformerError, match="empty"):
        loss_curve([], "png")


def test_a_multi_head_step_draws_its_first_heads_panel(tmp_path):
    from handformer.narrate import build

    sections = build(handformer.walk(), "en")
    section = find_section(sections, "decoder.0.self_attn.pattern")
    assert "decoder.0.self_attn.head.0.pattern" in section.steps
