"""The architecture of the model actually run, as an inline SVG whose boxes link to their steps.

Drawn twice on the page: wide in the overview (stacks side by side, sub-layers inside their
layers, as in the paper's figure) and narrow in the map that stays in view (everything stacked),
whose box for the step being read is lit by the page's script (``data-block``).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ..narrate.document import Architecture, Block

LEAF_W, LEAF_H, PAD, HEAD, GAP = 150, 40, 8, 20, 8
MAP_W, MAP_LEAF_H = 180, 22


@dataclass
class Box:
    block: Block
    x: float
    y: float
    w: float
    h: float
    leaf: bool


def _size(b: Block, leaf_w: float, leaf_h: float) -> tuple[float, float]:
    if not b.children:
        return leaf_w, leaf_h
    sizes = [_size(c, leaf_w - 2 * PAD, leaf_h) for c in b.children]
    return leaf_w, HEAD + sum(h for _, h in sizes) + GAP * (len(sizes) - 1) + PAD


def _place(b: Block, x: float, y: float, leaf_w: float, leaf_h: float, out: list[Box]) -> float:
    """Lay out a block and its children top-down from (x, y); returns its height."""
    w, h = _size(b, leaf_w, leaf_h)
    out.append(Box(b, x, y, w, h, not b.children))
    cy = y + HEAD
    for c in b.children:
        cy += _place(c, x + PAD, cy, leaf_w - 2 * PAD, leaf_h, out) + GAP
    return h


def layout(arch: Architecture, vertical: bool) -> tuple[list[Box], float, float]:
    """Every box placed: stacked for the map, stacks side by side for the overview."""
    boxes: list[Box] = []
    leaf_w, leaf_h = (MAP_W, MAP_LEAF_H) if vertical else (LEAF_W + 4 * PAD, LEAF_H)
    x = y = 0.0
    height = 0.0
    for b in arch.blocks:
        h = _place(b, x, y, leaf_w, leaf_h, boxes)
        if vertical:
            y += h + GAP
        else:
            x += leaf_w + 3 * GAP
            height = max(height, h)
    return boxes, (leaf_w if vertical else x - 3 * GAP), (y - GAP if vertical else height)


def architecture_svg(arch: Architecture | None, vertical: bool = False, title: str = "") -> str:
    """The diagram as SVG markup ("" without an architecture); every box with a section links
    to it."""
    if arch is None or not arch.blocks:
        return ""
    boxes, width, height = layout(arch, vertical)
    cls = "arch map" if vertical else "arch overview"
    parts = [f'<svg class="{cls}" viewBox="-2 -2 {width + 4:.0f} {height + 4:.0f}" '
             f'width="{width + 4:.0f}" height="{height + 4:.0f}" role="img" '
             f'aria-label="{escape(title)}">']
    parts += [_box(box, vertical) for box in boxes]
    parts.append("</svg>")
    return "".join(parts)


def _box(box: Box, vertical: bool) -> str:
    b = box.block
    label = escape(b.label)
    text_y = box.y + (box.h / 2 + 4 if box.leaf else 14)
    detail = "" if vertical or not b.detail or not box.leaf else (
        f'<text x="{box.x + box.w / 2:.0f}" y="{box.y + box.h - 6:.0f}" class="detail">'
        f'{escape(b.detail)}</text>')
    if detail:
        text_y = box.y + 16
    shape = (f'<g class="blk k-{escape(b.kind)}{" leaf" if box.leaf else ""}" '
             f'data-block="{escape(b.id)}"><title>{label}{" · " + escape(b.detail) if b.detail else ""}'
             f'</title><rect x="{box.x:.0f}" y="{box.y:.0f}" width="{box.w:.0f}" '
             f'height="{box.h:.0f}" rx="5"/><text x="{box.x + box.w / 2:.0f}" y="{text_y:.0f}">'
             f'{label}</text>{detail}</g>')
    if b.section:
        return f'<a href="#s-{escape(b.section)}">{shape}</a>'
    return shape


def block_of(arch: Architecture | None, section_id: str) -> str:
    """The innermost block a section belongs to: the one whose section it is, else the longest
    block id that prefixes it ("" when none)."""
    if arch is None:
        return ""
    best = ""
    for b in _walk(arch.blocks):
        if b.section == section_id:
            return b.id
        if (section_id == b.id or section_id.startswith(b.id + ".")) and len(b.id) > len(best):
            best = b.id
    return best


def _walk(blocks: list[Block]):
    for b in blocks:
        yield b
        yield from _walk(b.children)
