"""The drawings' labels: a word cut between characters measures each line as it grows, and
gives the lines that measuring every candidate line whole gives (the rule it replaced); a
Latin word is never cut, and a label with one wider than its box is set smaller; the
contents' short titles drop their groups' names as before."""

from __future__ import annotations

import re

import pytest

from handformer.render.html.svg_map import CLOSING, fitted_scale, label_lines, text_px
from handformer.render.html.toc import _short


def units(word: str) -> list[str]:
    """Where a word may be cut: around each CJK character (U+2E80 on), never inside a run of
    other characters (a Latin word)."""
    out: list[str] = []
    for c in word:
        if out and c < "\u2e80" and out[-1][-1] < "\u2e80":
            out[-1] += c
        else:
            out.append(c)
    return out


def measured_whole(word: str, width: float) -> list[str]:
    """The rule before: each candidate line measured whole."""
    lines: list[list[str]] = [[]]
    for unit in units(word):
        if lines[-1] and text_px("".join(lines[-1]) + unit) > width:
            carry = lines[-1][-1:] if unit in CLOSING and len(lines[-1]) > 1 else []
            lines[-1] = lines[-1][:len(lines[-1]) - len(carry)]
            lines.append(carry)
        lines[-1].append(unit)
    return ["".join(line) for line in lines]


LABELS = ["多头注意力（编码器）：自注意力，第 1 个头", "残差连接与层归一化。", "前馈网络",
          "Multi-head self-attention", "Add & norm", "词嵌入＋位置编码」」", "a" * 40,
          "混合mixed文字text与标点，。：；", "。", "", "「引号」里的词、和：冒号"]


@pytest.mark.parametrize("width", [7.2, 12.24, 30.0, 61.2, 94.0, 154.0])
@pytest.mark.parametrize("label", LABELS)
def test_a_cut_word_gives_the_lines_whole_measures_give(label, width):
    expected = []
    for word in label.split():
        joined = f"{expected[-1]} {word}" if expected else word
        if expected and text_px(joined) <= width:
            expected[-1] = joined
        else:
            expected += measured_whole(word, width)
    assert label_lines(label, width) == (expected or [""])


@pytest.mark.parametrize("width", [7.2, 30.0, 94.0])
def test_a_latin_word_is_never_cut(width):
    for label in LABELS:
        for line in label_lines(label, width):
            for run in re.findall(r"[A-Za-z]+", line):
                assert re.search(rf"(?<![A-Za-z]){run}(?![A-Za-z])", label), (label, line)


def test_a_label_with_a_word_wider_than_its_box_is_set_smaller():
    room = 94.0  # the map's box: 104 px less its padding
    lines = label_lines("Cross-attention", room)
    assert lines == ["Cross-attention"]
    k = fitted_scale(lines, room)
    assert k < 1 and k * 15 * 7.2 <= room < (k + 0.001) * 15 * 7.2  # 15 characters, 7.2 px each
    assert fitted_scale(label_lines("Masked attention", room), room) is None  # broken at its space


def test_text_px_counts_a_cjk_character_as_1_7_latin_ones():
    assert text_px("ab") == 7.2 + 7.2
    assert text_px("注a") == 7.2 * 1.7 + 7.2
    assert text_px("") == 0


@pytest.mark.parametrize("title,place,short", [
    ("Layer 1: self-attention, head 1", ["Encoder", "Layer 1"], "Self-attention, head 1"),
    ("Add & norm: layer normalization", ["Layer 1", "Add & norm 2"], "Layer normalization"),
    ("ADD & NORM：残差", ["add & norm 2"], "残差"),
    ("Layer 10 output", ["Layer 1"], "Layer 10 output"),
    ("Layer 1", ["Layer 1"], "Layer 1"),
])
def test_short_titles_drop_what_their_groups_say(title, place, short):
    panel = {"title": {"en": title}, "place": {"en": place}}
    assert _short(panel, "en") == short


def block_by_prefix(arch, section_id: str, phase: str = "") -> str:
    """block_of's rule as first written: every block's id tested as a dotted prefix."""
    from handformer.render.html.svg_map import _walk

    sid = section_id.removeprefix("grad.").removeprefix("update.")
    best = ""
    for b in _walk(arch.blocks):
        if b.section == sid and not b.children:
            return b.id
        if (sid == b.id or sid.startswith(b.id + ".")) and len(b.id) > len(best):
            best = b.id
    if best:
        return best
    leaves = [b for b in _walk(arch.blocks) if not b.children]
    return leaves[0].id if phase == "text" else leaves[-1].id


@pytest.mark.parametrize("family", ["transformer", "gpt"])
def test_every_panels_block_is_the_one_the_prefix_rule_finds(family):
    import handformer
    from handformer.narrate import build
    from handformer.render.html.svg_map import block_of

    tape = handformer.walk(backward=True, family=family)
    sections = build(tape, "en", "all")
    arch = next(s.architecture for s in sections if s.architecture)
    ids = [s.id for s in sections] + ["", "decoder", "decoder.0.", "x..y", "grad.encoder.0.ffn"]
    for sid in ids:
        for phase in ("text", "forward"):
            assert block_of(arch, sid, phase) == block_by_prefix(arch, sid, phase)
