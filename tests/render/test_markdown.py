"""Markdown: balanced LaTeX in every $$ block, well-formed tables, escaped text, golden renders."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

import handformer
from handformer.narrate import build
from handformer.narrate.document import Matrix, Section
from handformer.render.markdown import bmatrix, render_sections, tex_text
from support.paths import GOLDEN as GOLDEN_ROOT

GOLDEN = GOLDEN_ROOT / "markdown"
XSS = "<script>alert(1)</script> <img src=x onerror=alert(1)> is here"


@pytest.fixture(scope="module")
def tape():
    return handformer.walk(backward=True)


@pytest.fixture(scope="module", params=["en", "zh"])
def doc(request, tape):
    return render_sections(build(tape, request.param), precision=3, lang=request.param)


def math_blocks(text: str) -> list[str]:
    """The contents of every $$ … $$ block (block quotes' "> " removed)."""
    lines = [re.sub(r"^> ?", "", line) for line in text.splitlines()]
    assert sum(line.strip() == "$$" for line in lines) % 2 == 0, "an unclosed $$"
    return re.findall(r"^\$\$\n(.*?)\n\$\$$", "\n".join(lines), flags=re.S | re.M)


def balanced(tex: str) -> bool:
    """Braces, \\begin/\\end and \\left/\\right pair up (escaped \\{ \\} do not count)."""
    bare = re.sub(r"\\[{}]", "", tex)
    depth = 0
    for ch in bare:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    stack = []
    for kind, env in re.findall(r"\\(begin|end)\{(\w+)\}", tex):
        if kind == "begin":
            stack.append(env)
        elif not stack or stack.pop() != env:
            return False
    lefts = len(re.findall(r"\\left\b", tex)) == len(re.findall(r"\\right\b", tex))
    return depth == 0 and not stack and lefts


def test_every_math_block_is_balanced(doc):
    blocks = math_blocks(doc)
    assert len(blocks) > 100
    for tex in blocks:
        assert balanced(tex), tex[:200]
        assert "$" not in tex.replace(r"\$", ""), tex[:200]  # a stray $ ends GitHub's math


def cells(row: str) -> int:
    return len(re.findall(r"(?<!\\)\|", row.strip())) - 1


def test_tables_are_well_formed(doc):
    tables = re.findall(r"(?:^\|.*\n)+", doc, flags=re.M)
    assert tables
    for table in tables:
        rows = table.strip().splitlines()
        assert len(rows) >= 3 and re.fullmatch(r"\|(?:-{3,}\|)+", rows[1]), table
        assert {cells(r) for r in rows} == {cells(rows[1])}, table


def test_headings_per_step_and_anchors(tape, doc):
    sections = build(tape, "en")
    assert doc.count("\n## ") == len(sections)
    for s in sections:
        assert f'<a id="s-{s.id}"></a>' in doc


def test_bmatrix_numbers_and_elision():
    small = np.array([[1.0, -0.00001], [-np.inf, 2.5]])
    assert bmatrix(small, 3) == (r"\begin{bmatrix} 1.000 & 0.000 \\ -\infty & 2.500 "
                                 r"\end{bmatrix}")
    big = np.arange(40 * 30, dtype=float).reshape(40, 30)
    tex = bmatrix(big, 0)
    rows = tex.split(r" \\ ")
    assert len(rows) == 6 + 1 + 2  # first 6 rows, a \vdots row, the last 2
    assert rows[0].endswith(r"7 & \cdots & 28 & 29")
    assert r"\ddots" in rows[6] and rows[-1].startswith("1170 &")


def test_hostile_words_stay_text(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(XSS + "\n", encoding="utf-8")
    tape = handformer.walk(src=XSS, tgt="is here", corpus=str(corpus))
    text = render_sections(build(tape, "en"))
    assert not re.search(r"(?<!\\)<(script|img|/script)", text)  # only as \< … \>
    assert r"\<script\>alert(1)\</script\>" in text
    assert tex_text("<img src=x>") == r"\lt \text{img src=x}\gt "
    for tex in math_blocks(text):
        assert balanced(tex)


def test_a_section_built_by_hand():
    m = Matrix("x", "X", np.array([[0.5, -1.25]]), rows=["a|b"], cols=["d0", "d1"])
    s = Section("demo", "14", "Demo", ["One *line* with | a pipe"], r"Y = X",
                [m, "=", m], panel=4)
    text = render_sections([s], precision=2)
    assert "## 4 · Demo" in text and r"One \*line\* with \| a pipe" in text
    assert r"\underbrace{X = \begin{bmatrix} 0.50 & -1.25 \end{bmatrix}}_{1 \times 2}" in text
    assert "| token | a\\|b |" in text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_golden_tutorial(lang):
    """The tutorial's walkthrough; HANDFORMER_REGEN_GOLDEN=1 rewrites the expected files."""
    got = render_sections(build(handformer.walk(), lang), precision=3, lang=lang)
    path = GOLDEN / f"tutorial.{lang}.md"
    if os.environ.get("HANDFORMER_REGEN_GOLDEN") == "1":
        path.write_text(got, encoding="utf-8")
    assert got == path.read_text(encoding="utf-8")


def test_cli_markdown_from_a_saved_tape(tmp_path):
    """`walk --format json`, then `render tape.json --format markdown`: the same document."""
    from handformer.cli import main

    tape_file, direct, again = tmp_path / "t.json", tmp_path / "a.md", tmp_path / "b.md"
    for argv in (["walk", "--format", "json", "-o", str(tape_file)],
                 ["walk", "--format", "markdown", "--lang", "zh", "-o", str(direct)],
                 ["render", str(tape_file), "--format", "markdown", "--lang", "zh", "-o",
                  str(again)]):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 0
    assert again.read_text(encoding="utf-8") == direct.read_text(encoding="utf-8")
    assert "# handformer: 手算 Transformer" in direct.read_text(encoding="utf-8")
