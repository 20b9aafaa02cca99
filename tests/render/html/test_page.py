"""The HTML page without a browser: self-contained, escaped, the tape's numbers, bounded size."""

from __future__ import annotations

import math
import os
import re
from html.parser import HTMLParser

import numpy as np
import pytest

import handformer
from handformer.cli import main
from handformer.files.tape_json import dumps, loads
from handformer.narrate import build
from handformer.render.html import page as html
from handformer.render.html.view import mathml
from handformer.text import TUTORIAL_DATASET
from support.paths import GOLDEN as GOLDEN_ROOT

GOLDEN = GOLDEN_ROOT / "html"
XSS = "<script>alert(1)</script> <img src=x onerror=alert(1)> is here"


@pytest.fixture(scope="module")
def tape():
    return handformer.walk(backward=True)


@pytest.fixture(scope="module")
def page(tape):
    return html.render(tape, precision=3)


class Figures(HTMLParser):
    """Every drawn matrix: its data-name, caption shape, and the text of its cells by row."""

    def __init__(self):
        super().__init__()
        self.figures, self._fig, self._cell, self._shape, self._depth = [], None, None, False, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure":
            self._fig = {"name": a.get("data-name"), "rows": [], "shape": ""}
            self.figures.append(self._fig)
        elif self._fig is not None and tag == "tr":
            self._fig["rows"].append([])
        elif self._fig is not None and tag == "td":
            self._cell = ""
        elif self._fig is not None and tag == "span" and a.get("class") == "shape":
            self._shape = True

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            self._fig["rows"][-1].append(self._cell)
            self._cell = None
        elif tag == "span":
            self._shape = False
        elif tag == "figure":
            self._fig = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data
        elif self._shape and self._fig is not None and not self._fig["shape"]:
            self._fig["shape"] = data


def expected_text(x: float) -> str:
    """Rounded at 3 decimals as a person writes it: −∞ for masked, no negative zero."""
    if x == -math.inf:
        return "−∞"
    text = format(x, ".3f")
    return "0.000" if text == "-0.000" else text


def corners(n: int, limit: int, head: int) -> list[int]:
    """Large matrices show their first rows/columns and the last two."""
    return list(range(n)) if n <= limit else list(range(head)) + [n - 2, n - 1]


def test_page_needs_no_network(page):
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", page, re.I)
    assert not re.search(r"https?://", page.replace(
        'xmlns="http://www.w3.org/1998/Math/MathML"', ""))
    assert "@import" not in page
    assert "url(" not in page
    assert page.count("<script") == 1 and "<link" not in page


def test_formulas_are_mathml_and_bad_latex_falls_back(tape, page):
    """Every formula and every matrix symbol on the page is MathML: none fell back to TeX."""
    assert 'class="tex"' not in page
    with_formula = [s for s in build(tape, "en") if s.formula]
    assert page.count('<div class="formula"><math') == len(with_formula) > 50
    symbols = re.findall(r'<span class="sym">(.{0,5})', page)
    assert len(symbols) > 100 and all(s.startswith("<math") for s in symbols)
    assert "<mfrac>" in page
    bad = mathml(r"\frac{a}{")
    assert bad.startswith('<code class="tex">') and r"\frac{a}{" in bad


def test_every_step_and_both_languages(tape, page):
    from handformer.narrate import build

    en, zh = build(tape, "en"), build(tape, "zh")
    for s in en:
        assert f'id="s-{s.id}"' in page
        assert f'href="#s-{s.id}"' in page
    assert page.count('class="l-zh narration"') == len(zh)
    assert {s.phase for s in en} >= {"text", "forward", "loss", "backward", "update"}
    assert page.count('<details class="callout">') == sum(len(s.callouts) for s in en)


def test_numbers_in_the_page_are_the_tapes(tape, page):
    """Each drawn tape value (or parameter) shows the tape's number, rounded at 3 decimals."""
    parser = Figures()
    parser.feed(page)
    checked = 0
    for fig in parser.figures:
        if fig["name"] not in tape:
            continue
        whole = np.issubdtype(np.asarray(tape[fig["name"]]).dtype, np.integer)  # ids: 101
        value = np.asarray(tape[fig["name"]], dtype=float)
        value = value.reshape(1, -1) if value.ndim == 1 else value
        shape = " × ".join(map(str, value.shape))
        if value.ndim != 2:
            continue
        if fig["shape"] != shape and fig["shape"] == " × ".join(map(str, value.shape[::-1])):
            value = value.T  # Kᵀ is drawn under the name of K
        elif fig["shape"] != shape:
            continue
        cells = [[c for c in r if c != "⋯"] for r in fig["rows"] if r and "⋮" not in r]
        rows, cols = corners(value.shape[0], 16, 6), corners(value.shape[1], 32, 8)  # the page: 32 columns whole
        text = (lambda x: str(int(x))) if whole else expected_text
        assert cells == [[text(value[i, j]) for j in cols] for i in rows]
        checked += 1
    assert checked > 60


def test_masked_cells_are_marked(page):
    parser = Figures()
    parser.feed(page)
    masked = next(f for f in parser.figures if f["name"] == "decoder.0.self_attn.head.0.masked")
    assert masked["rows"][1][1:] == ["−∞"] * 5  # row 0 (<start>) sees only itself
    cells = re.findall(r'<td class="([^"]*)">−∞</td>', page)
    assert cells and all("m" in c.split() for c in cells)  # beside a worked row's band "hr"


def test_user_text_is_escaped(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(XSS + "\n", encoding="utf-8")
    out = tmp_path / "xss.html"
    with pytest.raises(SystemExit) as done:
        main(["walk", "--corpus", str(corpus), "--src", XSS, "--tgt", "is here",
              "--format", "html", "-o", str(out)], standalone_mode=True)
    assert done.value.code == 0
    text = out.read_text(encoding="utf-8")
    assert "<script>alert" not in text and "<img" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "&lt;img" in text


@pytest.mark.slow
def test_paper_page_stays_under_10_mb():
    """paper preset, the 12-token line of the dataset: corners shown, "show all" bounded."""
    src = TUTORIAL_DATASET[1]
    tape = handformer.walk(src=src, tgt="you win or you die", preset="paper")
    assert len(tape.meta["src"]["tokens"]) == 12
    text = html.render(tape)
    assert len(text.encode("utf-8")) < 10_000_000
    assert "⋯" in text and 'class="showall"' in text
    assert "12 × 512" in text


def test_rendered_from_a_json_tape_is_the_same_page(tmp_path):
    """`handformer render tape.json --format html` redraws the page without recomputing."""
    tape = handformer.walk()
    path = tmp_path / "tape.json"
    path.write_text(dumps(tape), encoding="utf-8")
    out = tmp_path / "again.html"
    with pytest.raises(SystemExit) as done:
        main(["render", str(path), "--format", "html", "-o", str(out)])
    assert done.value.code == 0
    assert out.read_text(encoding="utf-8") == html.render(tape, precision=3)


def test_a_json_tape_with_gradients_renders(tape, page):
    again = html.render(loads(dumps(tape)), precision=3)
    for anchor in re.findall(r'<section class="panel[^"]*" id="([^"]+)"', page):
        assert f'id="{anchor}"' in again


def test_notebook_fragment(tape):
    frag = tape._repr_html_()
    assert frag.startswith('<div class="hf fragment">') and "<html" not in frag
    assert "<script" not in frag and "<style>" in frag
    assert frag.count('<section class="panel') > 50 and "<math" in frag


def normalized(page: str) -> str:
    """The page without its inlined style and script (they change without changing content)."""
    page = re.sub(r"<style>.*?</style>", "<style/>", page, flags=re.S)
    return re.sub(r"<script>.*?</script>", "<script/>", page, flags=re.S)


def test_golden_tutorial_page():
    """The tutorial's forward walkthrough at precision 3; HANDFORMER_REGEN_GOLDEN=1 rewrites it."""
    got = normalized(html.render(handformer.walk(), precision=3))
    path = GOLDEN / "tutorial.html"
    if os.environ.get("HANDFORMER_REGEN_GOLDEN") == "1":
        path.write_text(got, encoding="utf-8")
    assert got == path.read_text(encoding="utf-8")


def test_lang_option_picks_the_language_the_page_opens_in(tmp_path):
    out = tmp_path / "zh.html"
    with pytest.raises(SystemExit) as done:
        main(["walk", "--format", "html", "--lang", "zh", "-o", str(out)])
    assert done.value.code == 0
    text = out.read_text(encoding="utf-8")
    assert '<html lang="zh-CN" data-lang="zh"' in text
    assert 'data-set-lang="zh" aria-pressed="true"' in text


def test_the_drawings_escape_as_html_escape():
    """svg.escape stands in for html.escape (whose package loads every named entity)."""
    import html as stdlib_html

    from handformer.render.html import svg

    for text in ("", "plain", "a & b < c > d \" e ' f", "&amp; 注意力 “x” <end>", "'\"&<>" * 3):
        assert svg.escape(text) == stdlib_html.escape(text)
