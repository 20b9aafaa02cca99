"""The map in one row, for the page's header where the contents are a drawer (a phone, or a page
whose wide matrices take the whole width): every box labelled in a few words, an arrow from each
to the next, the memory's entry into a cross-attention marked "M →", a stack of many layers drawn
once and marked × N. Every box links to its step; the page's script lights the one being read
and scrolls the row to keep it in view."""

from __future__ import annotations

from ...narrate.document import Architecture, Block
from .svg_flow import drawn_layers, short_label
from .svg_map import Box, box_shape, escape, text_px

H, PAD, ARROW, FRAME = 22, 7, 16, 4


def strip_svg(arch: Architecture | None, lang: str, title: str = "") -> str:
    """The row as SVG markup ("" without an architecture)."""
    if arch is None or not arch.blocks:
        return ""
    parts: list[str] = []
    x = 0.0
    for b in arch.blocks:
        x = _item(b, x, lang, parts, arch.memory is not None)
    w, h = x - ARROW + 2, H + 2 * FRAME + 14
    return (f'<svg class="arch strip" viewBox="-1 -1 {w:.0f} {h:.0f}" width="{w:.0f}" '
            f'height="{h:.0f}" role="img" aria-label="{escape(title)}">' + "".join(parts)
            + "</svg>")


def _item(b: Block, x: float, lang: str, parts: list[str], memory: bool) -> float:
    """Draw ``b`` (a box, or a stack's drawn layers in a frame) from ``x``; returns where the
    next begins."""
    if not b.children:
        return _box(b, x, lang, parts, memory)
    index, start = len(parts), x
    for layer in drawn_layers(b):
        for leaf in layer.children:
            x = _box(leaf, x + FRAME * (leaf is layer.children[0]), lang, parts, memory)
    for leaf in (c for c in b.children if not c.children):
        x = _box(leaf, x, lang, parts, memory)
    w = x - ARROW - start + FRAME
    parts.insert(index, f'<g class="frame"><rect x="{start:.0f}" y="0" width="{w:.0f}" '
                        f'height="{H + 2 * FRAME + 12:.0f}" rx="4"/><text x="{start + 4:.0f}" '
                        f'y="{H + 2 * FRAME + 9:.0f}">{escape(b.label)}</text></g>')
    return x + FRAME


def _box(b: Block, x: float, lang: str, parts: list[str], memory: bool) -> float:
    label = short_label(b, lang)
    if memory and b.id.endswith("cross_attn"):
        label = "M → " + label
    w = text_px(label) * 11 / 12 + 2 * PAD
    box = Box(b, x, FRAME, w, H, True)
    text = (f'<text x="{x + w / 2:.0f}" y="{FRAME + H / 2 + 4:.0f}">{escape(label)}</text>')
    name = " · ".join(filter(None, (b.label, b.detail)))
    parts.append(box_shape(box, name, 4, text, bool(b.section)))
    if b.id != "prediction" and b.kind != "output":
        y = FRAME + H / 2
        parts.append(f'<path class="link" d="M{x + w + 2:.0f} {y:.0f}H{x + w + ARROW - 3:.0f}"/>'
                     f'<polygon points="{x + w + ARROW - 1:.1f},{y:.1f} {x + w + ARROW - 6:.1f},'
                     f'{y - 3:.1f} {x + w + ARROW - 6:.1f},{y + 3:.1f}"/>')
    return x + w + ARROW
