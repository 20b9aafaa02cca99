"""What the architecture's drawings share (svg_flow: the data flow; svg_strip: the row in the
header): a box linked to its step and lit by the page's script (``data-block``), labels broken
to fit their box, and which block each panel belongs to."""

from __future__ import annotations

import re
from functools import lru_cache

from ...narrate.document import Architecture, Block
from ...records import Record
from . import svg

# The drawings escape the same ids, labels and shapes in every shape and language of a page.
escape = lru_cache(maxsize=4096)(svg.escape)

CLOSING = "）」』】〕》〉”’，。、：；！？"  # may not open a line (CJK line-breaking rules)
CHAR_PX = 7.2  # the diagram's 12 px bold face: its mean Latin advance
WIDE_FROM = "\u2e80"  # the first CJK radical: from here on, a character about one em wide
UNIT = re.compile("[^\u2e80-\U0010ffff]+|.")  # a run of narrow characters, or one wide one


class Box(Record):
    """A block's box on the map: where it is drawn, its size, whether it is a leaf."""

    FIELDS = ("block", "x", "y", "w", "h", "leaf")

    def __init__(self, block: Block, x: float, y: float, w: float, h: float, leaf: bool):
        self.block, self.x, self.y, self.w, self.h, self.leaf = block, x, y, w, h, leaf


def label_lines(label: str, width: float) -> list[str]:
    """The label broken at spaces into lines that fit ``width`` px of the 12 px bold face
    (``text_px``): the boxes keep their width. A Latin word is never cut: one wider than the
    box is a line of its own, and the drawing sets that label smaller (``fitted_scale``)."""
    return list(_label_lines(label, width))


@lru_cache(maxsize=1024)  # the map draws the overview's narrow labels again
def _label_lines(label: str, width: float) -> tuple[str, ...]:
    lines: list[str] = []
    for word in label.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and text_px(joined) <= width:
            lines[-1] = joined
        else:
            lines += _cut(word, width)
    return tuple(lines or [""])


def _cut(word: str, width: float) -> list[str]:
    """A word wider than the box (Chinese has no spaces) cut between its units, each CJK
    character or a run of other characters (a Latin word inside Chinese stays whole), never
    before closing punctuation (the unit before it moves down with it). The line's width grows
    by each unit's (without measuring the line again for each unit)."""
    lines: list[list[str]] = [[]]
    line_px = 0.0
    for unit in UNIT.findall(word):
        px = text_px(unit)
        if lines[-1] and line_px + px > width:
            carry = lines[-1][-1:] if unit in CLOSING and len(lines[-1]) > 1 else []
            del lines[-1][len(lines[-1]) - len(carry):]
            lines.append(carry)
            line_px = text_px("".join(carry))
        lines[-1].append(unit)
        line_px += px
    return ["".join(units) for units in lines]


def fitted_scale(lines: list[str], width: float) -> float | None:
    """The scale (under 1, a thousandth down) at which the widest of ``lines`` fits ``width``;
    None when they fit as they are."""
    widest = max(map(text_px, lines), default=0.0)
    return None if widest <= width else int(width / widest * 1000) / 1000


def text_px(text: str) -> float:
    return sum(_widths(text))


def _widths(text: str) -> list[float]:
    """Each character's advance: a CJK character about one em, any other about 0.6 em."""
    return [CHAR_PX * (1.7 if c >= WIDE_FROM else 1.0) for c in text]


def box_shape(box: Box, name: str, radius: int, label: str, linked: bool) -> str:
    """One block: its box (the map's script lights it by ``data-block``), named in its
    tooltip, linked to its step when ``linked``."""
    b = box.block
    shape = (f'<g class="blk k-{escape(b.kind)}{" leaf" if box.leaf else ""}" '
             f'data-block="{escape(b.id)}"><title>{escape(name)}</title>'
             f'<rect x="{box.x:.0f}" y="{box.y:.0f}" width="{box.w:.0f}" '
             f'height="{box.h:.0f}" rx="{radius}"/>{label}</g>')
    return f'<a href="#s-{escape(b.section)}">{shape}</a>' if linked else shape


def block_of(arch: Architecture | None, section_id: str, phase: str = "") -> str:
    """The innermost block a section belongs to: a gradient's or an update's is the block of
    the step or parameter it is about; otherwise the box whose section it is, else the longest
    block id that prefixes it. A section of no block lights the box it leads to: the text the
    first box (the input), the loss and the recap the last ("" without an architecture)."""
    if arch is None or not arch.blocks:
        return ""
    sid = section_id.removeprefix("grad.").removeprefix("update.")
    parts = sid.split(".")
    prefixes = {".".join(parts[:k]) for k in range(1, len(parts) + 1)}  # "a", "a.b", "a.b.c"
    best = ""
    for b in _walk(arch.blocks):
        if b.section == sid and not b.children:
            return b.id
        if b.id in prefixes and len(b.id) > len(best):
            best = b.id
    if best:
        return best
    leaves = [b for b in _walk(arch.blocks) if not b.children]
    return leaves[0].id if phase == "text" else leaves[-1].id


def _walk(blocks: list[Block]) -> list[Block]:
    """Every block, each before its children (a list, not a generator: the page asks for the
    block of every panel, and nested generators cost more than the looking)."""
    found = []
    for b in blocks:
        found.append(b)
        if b.children:
            found += _walk(b.children)
    return found
