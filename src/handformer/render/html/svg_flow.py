"""The architecture as data flow, an inline SVG: arrows from block to block, each labelled with
the shape of what it carries (read off the tape); the residual path around every sub-layer
into its add & norm (pre-norm: into the sum after it); the encoder's output M into every
cross-attention. Each box links to its step; the page's script lights the box being read.

Drawn wide in the overview (sizes in the boxes) and narrow in the map beside the contents and
in the overview on a phone (short labels). A stack of more than ``ALL_LAYERS`` layers is drawn
as its first layer marked × N; the panels of the others light that layer's boxes.
"""

from __future__ import annotations

from ... import i18n
from ...narrate.document import Architecture, Block, Edge
from ...records import Frozen, Record
from .svg_map import Box, box_shape, escape, fitted_scale, label_lines

ALL_LAYERS = 2  # a stack of more layers is drawn once, marked × N


class Metrics(Frozen):
    """The diagram's sizes: a box's width, a label line's height, the gap between two boxes
    (the arrow and its shape), the lane beside a column (the residual paths), the padding, a
    frame's title, the room between two columns (the memory's bus), and whether labels are
    the map's short ones (no sizes in the boxes)."""

    FIELDS = ("box_w", "line", "gap", "lane", "pad", "head", "apart", "short")

    def __init__(self, box_w: float, line: float, gap: float, lane: float, pad: float,
                 head: float, apart: float, short: bool):
        self._set(box_w=box_w, line=line, gap=gap, lane=lane, pad=pad, head=head, apart=apart,
                  short=short)


WIDE = Metrics(box_w=170, line=14, gap=30, lane=30, pad=8, head=20, apart=52, short=False)
NARROW = Metrics(box_w=104, line=13, gap=26, lane=20, pad=5, head=17, apart=28, short=True)


def short_label(b: Block, lang: str) -> str:
    """The few words the map has room for."""
    tail = b.id.rsplit(".", 1)[-1]
    key = {"src_embed": "arch.short.src", "tgt_embed": "arch.short.tgt", "embed": "arch.short.embed",
           "embeddings": "arch.short.embed", "cross_attn": "arch.short.cross",
           "generator": "arch.short.linear", "prediction": "arch.short.words",
           "pooling": "arch.short.pool"}.get(tail)
    if tail == "self_attn":
        key = "arch.short.masked" if b.id.startswith("decoder") else "arch.short.self"
    return i18n.t(lang, key) if key else b.label


class Flow(Record):
    """A column being drawn: where its next arrow starts and what it carries. x: the boxes'
    left edge; side: -1 residual paths on the left, +1 on the right; y: the bottom of what is
    drawn so far; extra: more room above the next box (a frame's title or its bottom); skip:
    a residual path under way (where it starts, what it carries, the box it goes into); last:
    the id of the block the next arrow leaves."""

    FIELDS = ("x", "side", "y", "carry", "extra", "skip", "last")

    def __init__(self, x: float, side: int, y: float = 0.0, carry: Edge | None = None,
                 extra: float = 0.0, skip: tuple[float, Edge | None, str] | None = None,
                 last: str = ""):
        self.x, self.side, self.y, self.carry, self.extra = x, side, y, carry, extra
        self.skip, self.last = skip, last


def flow_svg(arch: Architecture | None, lang: str, narrow: bool = False, title: str = "") -> str:
    """The diagram as SVG markup ("" without an architecture)."""
    return labelled(flow_drawing(arch, lang, narrow), title)


def labelled(drawing: tuple[str, str] | None, title: str) -> str:
    """A drawing of ``flow_drawing`` as SVG markup named ``title`` ("" for no drawing)."""
    if drawing is None:
        return ""
    attributes, content = drawing
    return f'<svg {attributes} aria-label="{escape(title)}">{content}</svg>'


def flow_drawing(arch: Architecture | None, lang: str,
                 narrow: bool = False) -> tuple[str, str] | None:
    """The diagram without its label: the svg element's other attributes and its content
    (None without an architecture). The page labels one drawing twice: the overview's narrow
    diagram is also the map beside the contents."""
    if arch is None or not arch.blocks:
        return None
    m = NARROW if narrow else WIDE
    columns = _columns(arch.blocks)
    width = m.pad + m.lane + m.box_w + m.pad
    parts: list[str] = []
    cross: list[tuple[str, float]] = []  # every cross-attention's id and middle
    ends = []
    for k, column in enumerate(columns):
        x0 = k * (width + m.apart)
        side = -1 if k == 0 else 1
        flow = Flow(x0 + (m.pad + m.lane if side < 0 else m.pad), side)
        for b in column:
            _block(b, flow, m, lang, parts, cross)
        ends.append(flow)
    height = max(f.y for f in ends)
    if arch.memory is not None and len(ends) > 1 and cross:
        height = max(height, _memory(arch.memory, ends[0], ends[1].x, cross, m, parts))
    total_w = len(columns) * width + (len(columns) - 1) * m.apart
    cls = "arch flow map" if narrow else "arch flow overview"
    w, h = total_w + 4, height + 4
    return (f'class="{cls}" viewBox="-2 -2 {w:.0f} {h:.0f}" width="{w:.0f}" height="{h:.0f}" '
            'role="img"', "".join(parts))


def _columns(blocks: list[Block]) -> list[list[Block]]:
    """A column per input: each embedding starts one (the encoder-decoder's target side)."""
    columns: list[list[Block]] = []
    for b in blocks:
        if not columns or b.kind == "embed":
            columns.append([])
        columns[-1].append(b)
    return columns


def drawn_layers(stack: Block) -> list[Block]:
    layers = [c for c in stack.children if c.children]
    return layers if len(layers) <= ALL_LAYERS else layers[:1]


def _block(b: Block, flow: Flow, m: Metrics, lang: str, parts: list[str],
           cross: list) -> None:
    if not b.children:
        _leaf(b, flow, m, lang, parts, cross)
        return
    layers = [c for c in b.children if c.children]
    for k, layer in enumerate(drawn_layers(b)):
        title = b.label if k == 0 else layer.label
        if k == 0 and len(layers) > 1 and len(layers) <= ALL_LAYERS:
            title = f"{b.label} · {layer.label}"
        _frame(layer, title, flow, m, lang, parts, cross)
    for leaf in b.children:
        if not leaf.children:
            _leaf(leaf, flow, m, lang, parts, cross)


def _frame(layer: Block, title: str, flow: Flow, m: Metrics, lang: str, parts: list[str],
           cross: list) -> None:
    """A layer: its frame (drawn first, under its boxes), its title, then its sub-layers, each
    residual path starting above the first box it goes around."""
    index, top = len(parts), flow.y + flow.extra + m.gap / 2
    flow.extra += m.head
    children = layer.children
    for k, leaf in enumerate(children):
        after = children[k + 1] if k + 1 < len(children) else None
        skip = ""
        if leaf.kind in ("attention", "ffn") and after is not None and after.kind == "norm" \
                and leaf.sum is None:
            skip = after.id  # post-norm: around the sub-layer into its add & norm
        elif leaf.kind == "norm" and after is not None and after.sum is not None:
            skip = after.id + ".sum"  # pre-norm: around norm and sub-layer into the sum
        _leaf(leaf, flow, m, lang, parts, cross, skip)
    bottom = flow.y + m.pad
    left = flow.x - m.pad - (m.lane if flow.side < 0 else 0)
    w = m.box_w + 2 * m.pad + m.lane
    parts.insert(index, f'<g class="frame"><rect x="{left:.0f}" y="{top:.0f}" width="{w:.0f}" '
                        f'height="{bottom - top:.0f}" rx="6"/><text x="{left + 6:.0f}" '
                        f'y="{top + m.head - 5:.0f}">{escape(title)}</text></g>')
    flow.extra = m.pad


def _leaf(b: Block, flow: Flow, m: Metrics, lang: str, parts: list[str], cross: list,
          skip: str = "") -> None:
    label = short_label(b, lang) if m.short else b.label
    lines = label_lines(label, m.box_w - 2 * m.pad)
    detail = "" if m.short else b.detail
    h = m.line * (len(lines) + bool(detail)) + (8 if m.short else 12)
    top = flow.y + (m.gap + flow.extra if flow.last else flow.extra)
    if flow.last:
        parts.append(_arrow(flow, top, b.id, m))
    if skip:
        flow.skip = (top - 8, flow.carry, skip)  # below the arrow's shape
    box = Box(b, flow.x, top, m.box_w, h, True)
    name = " · ".join(filter(None, (b.label, b.detail, b.out.shape if b.out else "")))
    parts.append(box_shape(box, name, 5, _text(box, lines, detail, m), bool(b.section)))
    if flow.skip and flow.skip[2] == b.id:
        parts.append(_residual(flow, top + h / 2, b.id, m))
    if b.id.endswith("cross_attn"):
        cross.append((b.id, top + h / 2))
    flow.y, flow.carry, flow.last, flow.extra = top + h, b.out, b.id, 0.0
    if b.sum is not None:
        _sum(b, flow, m, parts)


def _sum(b: Block, flow: Flow, m: Metrics, parts: list[str]) -> None:
    """Pre-norm: the residual sum after a sub-layer, a ⊕ the skipped path enters."""
    r = m.gap / 3
    cy = flow.y + m.gap + r
    parts.append(_arrow(flow, cy - r, b.id + ".sum", m))
    cx = flow.x + m.box_w / 2
    parts.append(f'<g class="sum" data-block="{escape(b.id)}"><circle cx="{cx:.0f}" cy="{cy:.0f}" '
                 f'r="{r:.0f}"/><text x="{cx:.0f}" y="{cy + 4:.0f}">+</text></g>')
    if flow.skip and flow.skip[2] == b.id + ".sum":
        parts.append(_residual(flow, cy, b.id + ".sum", m, r))
    flow.y, flow.carry, flow.last = cy + r, b.sum, b.id + ".sum"


def _arrow(flow: Flow, end: float, to: str, m: Metrics) -> str:
    """The arrow down from what is drawn so far to ``end``, labelled with its shape."""
    cx, start = flow.x + m.box_w / 2, flow.y
    shape = _shape_text(flow.carry, cx + 5, start + 12)
    return (f'<g class="edge" data-step="{escape(_step(flow.carry))}" '
            f'data-from="{escape(flow.last)}" data-to="{escape(to)}">'
            f'<path d="M{cx:.0f} {start:.0f}V{end - 5:.0f}"/>{_head(cx, end, "down")}{shape}</g>')


def _residual(flow: Flow, y: float, to: str, m: Metrics, inset: float = 0.0) -> str:
    """The residual path: out of the arrow where it started, along the lane, into ``to``."""
    start, carried, _ = flow.skip
    flow.skip = None
    cx = flow.x + m.box_w / 2
    lane = flow.x - m.lane / 2 if flow.side < 0 else flow.x + m.box_w + m.lane / 2
    end = cx + flow.side * inset if inset else (
        flow.x if flow.side < 0 else flow.x + m.box_w)
    head = _head(end, y, "right" if flow.side < 0 else "left")
    back = 5 if flow.side < 0 else -5
    mid = (start + y) / 2
    label = "" if carried is None else (
        f'<text class="shape" transform="translate({lane - 3:.0f} {mid:.0f}) rotate(-90)">'
        f'{escape(carried.shape)}</text>')
    return (f'<g class="edge resid" data-step="{escape(_step(carried))}" data-to="{escape(to)}">'
            f'<path d="M{cx:.0f} {start:.0f}H{lane:.0f}V{y:.0f}H{end - back:.0f}"/>{head}{label}</g>')


def _memory(memory: Edge, enc: Flow, dec_x: float, cross: list, m: Metrics,
            parts: list[str]) -> float:
    """M: down out of the encoder, across to a bus between the columns, into every
    cross-attention from the side. Returns the bottom of what it drew."""
    cx, start = enc.x + m.box_w / 2, enc.y
    low = start + m.gap + enc.extra
    bus = dec_x - m.pad - m.apart / 2
    ins = "".join(
        f'<g class="m-in" data-to="{escape(to)}"><path d="M{bus:.0f} {y:.0f}H{dec_x - 5:.0f}"/>'
        f'{_head(dec_x, y, "right")}</g>' for to, y in cross)
    top = min(y for _, y in cross)
    parts.append(f'<g class="edge memory" data-step="{escape(memory.step)}" data-from="{escape(enc.last)}">'
                 f'<path d="M{cx:.0f} {start:.0f}V{low:.0f}H{bus:.0f}V{top:.0f}"/>{ins}'
                 f'<text class="mem" x="{cx - 8:.0f}" y="{low - 4:.0f}">M</text>'
                 f'{_shape_text(memory, cx + 5, (start + low) / 2 + 2)}</g>')
    return low + 2


def _shape_text(edge: Edge | None, x: float, y: float) -> str:
    if edge is None:
        return ""
    return f'<text class="shape" x="{x:.0f}" y="{y:.0f}">{escape(edge.shape)}</text>'


def _step(edge: Edge | None) -> str:
    return edge.step if edge else ""


def _head(x: float, y: float, way: str) -> str:
    """An arrowhead with its tip at (x, y)."""
    a, b = 5, 4
    points = {"down": [(x, y), (x - b, y - a), (x + b, y - a)],
              "right": [(x, y), (x - a, y - b), (x - a, y + b)],
              "left": [(x, y), (x + a, y - b), (x + a, y + b)]}[way]
    return '<polygon points="' + " ".join(f"{px:.1f},{py:.1f}" for px, py in points) + '"/>'


def _text(box: Box, lines: list[str], detail: str, m: Metrics) -> str:
    """The label's lines, set smaller when a word of it is wider than the box (never cut)."""
    cx = box.x + box.w / 2
    top = box.y + (14 if not m.short else 12.5)
    spans = "".join(f'<tspan x="{cx:.0f}" dy="{0 if k == 0 else m.line}">{escape(line)}</tspan>'
                    for k, line in enumerate(lines))
    # Scaled about the first line's start, by an attribute: the export's policy allows no
    # inline style, and its style sheet's font size would win over a font-size attribute.
    k = fitted_scale(lines, box.w - 2 * m.pad)
    size = "" if k is None else (f' transform="matrix({k} 0 0 {k} {cx * (1 - k):.1f} '
                                 f'{top * (1 - k):.1f})"')
    extra = "" if not detail else (
        f'<text x="{cx:.0f}" y="{box.y + box.h - 7:.0f}" class="detail">{escape(detail)}</text>')
    return f'<text x="{cx:.0f}" y="{top:.0f}"{size}>{spans}</text>{extra}'


def drawn_block(arch: Architecture | None, block_id: str) -> str:
    """The box that stands for ``block_id`` in the drawing: a layer's own, or, in a stack drawn
    as its first layer × N, that layer's."""
    if arch is None or not block_id:
        return block_id
    for b in arch.blocks:
        layers = [c for c in b.children if c.children]
        if len(layers) > ALL_LAYERS:
            for layer in layers[1:]:
                if block_id == layer.id or block_id.startswith(layer.id + "."):
                    return layers[0].id + block_id[len(layer.id):]
    return block_id
