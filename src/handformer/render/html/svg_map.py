"""The architecture of the model actually run, as an inline SVG whose boxes link to their steps.

Drawn twice on the page: wide in the overview (stacks side by side, sub-layers inside their
layers, as in the paper's figure) and narrow in the map that stays in view (everything stacked),
whose box for the step being read is lit by the page's script (``data-block``).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ...narrate.document import Architecture, Block

LEAF_W, LEAF_H, PAD, HEAD, GAP = 150, 40, 8, 20, 8
MAP_W, MAP_LEAF_H = 180, 22
CLOSING = "）」』】〕》〉”’，。、：；！？"  # may not open a line (CJK line-breaking rules)
CHAR_PX, LINE_H = 7.2, 14  # the diagram's 12 px bold face: mean Latin advance, line height


@dataclass
class Box:
    block: Block
    x: float
    y: float
    w: float
    h: float
    leaf: bool


def label_lines(label: str, width: float) -> list[str]:
    """The label broken at spaces into lines that fit ``width`` px of the 12 px bold face
    (a CJK character about one em, any other about 0.6 em): the boxes keep their width."""
    lines: list[str] = []
    for word in label.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and _text_px(joined) <= width:
            lines[-1] = joined
        else:
            lines += _cut(word, width)
    return lines or [""]


def _cut(word: str, width: float) -> list[str]:
    """A word wider than the box (Chinese has no spaces) cut between characters, never before
    closing punctuation (the character before it moves down with it)."""
    lines = [""]
    for c in word:
        if lines[-1] and _text_px(lines[-1] + c) > width:
            carry = lines[-1][-1] if c in CLOSING and len(lines[-1]) > 1 else ""
            lines[-1] = lines[-1][:len(lines[-1]) - len(carry)]
            lines.append(carry)
        lines[-1] += c
    return lines


def _text_px(text: str) -> float:
    return sum(CHAR_PX * (1.7 if ord(c) >= 0x2E80 else 1.0) for c in text)


def _size(b: Block, leaf_w: float, leaf_h: float) -> tuple[float, float]:
    if not b.children:
        return leaf_w, leaf_h + LINE_H * (len(label_lines(b.label, leaf_w - 2 * PAD)) - 1)
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
    """Every box placed: stacked for the map; for the overview in columns, as in the paper's
    figure: each embedding above its stack, what follows the last stack in a column of its own."""
    boxes: list[Box] = []
    leaf_w, leaf_h = (MAP_W, MAP_LEAF_H) if vertical else (LEAF_W + 4 * PAD, LEAF_H)
    x = y = width = height = 0.0
    previous = ""
    for b in arch.blocks:
        if not vertical and boxes and (b.kind == "embed" or previous == "stack"):
            x, y = x + leaf_w + 3 * GAP, 0.0
        y += _place(b, x, y, leaf_w, leaf_h, boxes) + GAP
        width, height, previous = x + leaf_w, max(height, y - GAP), b.kind
    return boxes, width, height


def architecture_svg(arch: Architecture | None, vertical: bool = False, title: str = "") -> str:
    """The diagram as SVG markup ("" without an architecture); every box with a section links
    to it."""
    if arch is None or not arch.blocks:
        return ""
    boxes, width, height = layout(arch, vertical)
    cls = "arch map" if vertical else "arch overview"
    return _svg(cls, width, height, 2, title, [_box(box, vertical) for box in boxes])


def _svg(cls: str, width: float, height: float, margin: int, title: str,
         parts: list[str]) -> str:
    w, h = width + 2 * margin, height + 2 * margin
    return (f'<svg class="{cls}" viewBox="-{margin} -{margin} {w:.0f} {h:.0f}" '
            f'width="{w:.0f}" height="{h:.0f}" role="img" aria-label="{escape(title)}">'
            + "".join(parts) + "</svg>")


def _box(box: Box, vertical: bool) -> str:
    b = box.block
    name = b.label + (" · " + b.detail if b.detail else "")
    return _shape(box, name, 5, _label(box, vertical), bool(b.section))


def _shape(box: Box, name: str, radius: int, label: str, linked: bool) -> str:
    """One block: its box (the map's script lights it by ``data-block``), named in its
    tooltip, linked to its step when ``linked``."""
    b = box.block
    shape = (f'<g class="blk k-{escape(b.kind)}{" leaf" if box.leaf else ""}" '
             f'data-block="{escape(b.id)}"><title>{escape(name)}</title>'
             f'<rect x="{box.x:.0f}" y="{box.y:.0f}" width="{box.w:.0f}" '
             f'height="{box.h:.0f}" rx="{radius}"/>{label}</g>')
    return f'<a href="#s-{escape(b.section)}">{shape}</a>' if linked else shape


def _label(box: Box, vertical: bool) -> str:
    """The label, a line per tspan (centred in a leaf, at the top of a group), and a leaf's
    sizes on a last line of their own in the overview."""
    b, cx = box.block, box.x + box.w / 2
    lines = label_lines(b.label, box.w - 2 * PAD) if box.leaf else [b.label]
    detail = "" if vertical or not b.detail or not box.leaf else (
        f'<text x="{cx:.0f}" y="{box.y + box.h - 6:.0f}" class="detail">{escape(b.detail)}</text>')
    if not box.leaf:
        top = box.y + 14
    elif detail:
        top = box.y + 16
    else:
        top = box.y + box.h / 2 + 4 - LINE_H * (len(lines) - 1) / 2
    spans = "".join(f'<tspan x="{cx:.0f}" dy="{0 if k == 0 else LINE_H}">{escape(line)}</tspan>'
                    for k, line in enumerate(lines))
    return f'<text x="{cx:.0f}" y="{top:.0f}">{spans}</text>{detail}'


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



STRIP_LEAF, STRIP_THIN, STRIP_H, STRIP_PAD, STRIP_GAP = 14, 8, 14, 3, 2


def strip_svg(arch: Architecture | None, title: str = "") -> str:
    """The map in one row, for the page's header when the contents give their column to a wide
    matrix: a small box per sub-layer coloured by kind, layers and stacks framed around theirs,
    every box linked to its step and named (with its stack and layer) in its tooltip; "" without
    an architecture. The page's script lights the box being read, as in the map."""
    if arch is None or not arch.blocks:
        return ""
    leaf_w = STRIP_LEAF if _leaves(arch.blocks) <= 40 else STRIP_THIN
    depth = max(_depth(b) for b in arch.blocks)
    parts: list[str] = []
    x = 0.0
    for b in arch.blocks:
        x += _strip_place(b, x, leaf_w, depth, (), parts) + 2 * STRIP_GAP
    return _svg("arch strip", x - 2 * STRIP_GAP, STRIP_H + 2 * STRIP_PAD * depth, 1, title, parts)


def _leaves(blocks: list[Block]) -> int:
    return sum(_leaves(b.children) if b.children else 1 for b in blocks)


def _depth(b: Block) -> int:
    """How many frames a block draws around its innermost boxes (0 for a box)."""
    return 1 + max((_depth(c) for c in b.children), default=-1)


def _strip_place(b: Block, x: float, leaf_w: float, depth: int, path: tuple[str, ...],
                 parts: list[str]) -> float:
    """Draw ``b`` from ``x``, centred on the strip's middle line (``depth``: the deepest
    block's), its frame drawn before its children; returns its width."""
    own = _depth(b)
    names, index = (*path, b.label), len(parts)
    w = leaf_w
    if b.children:
        cx = x + STRIP_PAD
        for c in b.children:
            cx += _strip_place(c, cx, leaf_w, depth, names, parts) + STRIP_GAP
        w = cx - STRIP_GAP + STRIP_PAD - x
    box = Box(b, x, STRIP_PAD * (depth - own), w, STRIP_H + 2 * STRIP_PAD * own, not b.children)
    parts.insert(index, _shape(box, " › ".join(names), 3, "", bool(b.section) and box.leaf))
    return w
