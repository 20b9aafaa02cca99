"""One colour mapping for every drawing of a matrix (HTML page and figures): one meaning per colour.

- "prob": probabilities and attention weights on a fixed 0 … 1 single-hue scale (white → purple),
  so 0.09–0.19 looks pale wherever it appears and weights compare across heads;
- "signed": a diverging scale (blue − white + red) around 0, its limit the 98th percentile of |x|
  over every matrix that shares it (an equation, an erratum pair), so one outlier does not wash out
  the rest; cells beyond the limit are drawn at the end colour and marked as clipped;
- "ids": token ids and other whole numbers: no colour (a colour would claim a magnitude).

Text on a cell is black or white, whichever contrasts more with the fill (WCAG 2 ratio; black is
chosen over #111 because only pure black guarantees ≥ 4.5:1 against every mid-tone).
Q, K and V keep one identity colour (Okabe–Ito blue, vermillion, green, after Transformer
Explainer's Q/K/V hues) on the matrix's frame wherever they appear.
"""

from __future__ import annotations

import math

import numpy as np

from ...records import Frozen

LEVELS = 10  # cells are coloured in steps: 2·LEVELS + 1 for signed, LEVELS + 1 for prob
CLIP_PERCENTILE = 98.0
_NEG, _MID, _POS = (33, 102, 172), (247, 247, 247), (178, 24, 43)  # ColorBrewer RdBu ends
_P0, _P1 = (252, 251, 253), (84, 39, 143)  # ColorBrewer Purples, light end and a dark step
INK_DARK, INK_LIGHT = "#000000", "#ffffff"
MASKED_FILL, MASKED_INK = "#d4d4d4", "#333333"
PROB_NAMES = ("probs", "pattern", "prediction")  # steps whose values are probabilities
ROLES = {"q": "#0072b2", "k": "#d55e00", "v": "#009e73"}


class Scale(Frozen):
    """How a matrix's numbers become colours: its kind ("prob", "signed" or "ids") and the
    limit of its range."""

    FIELDS = ("kind", "top")

    def __init__(self, kind: str, top: float = 1.0):
        self._set(kind=kind, top=top)


def kind_of(m) -> str:
    """The scale a matrix asks for; "auto" picks prob for attention patterns and probabilities,
    ids for whole-number ids, signed for the rest."""
    from .grids import integral

    if m.scale in ("prob", "signed", "ids"):
        return m.scale
    if m.kind == "pattern" or (str(m.name).endswith(PROB_NAMES) and _within_unit(m.value)):
        return "prob"
    return "ids" if integral(m.value, m.name) else "signed"


def _within_unit(value) -> bool:
    v = np.asarray(value, dtype=np.float64)
    finite = v[np.isfinite(v)]
    return bool(finite.size) and float(finite.min()) >= 0.0 and float(finite.max()) <= 1.0


def signed_limit(values) -> float:
    """The robust half-range shared by several matrices: the 98th percentile of |x| over all
    their finite values (1 when there is none or it is 0)."""
    # joined first, then filtered once: numpy's cost here is per call, not per number
    joined = [np.asarray(x, dtype=np.float64).ravel() for x in values]
    flat = np.concatenate(joined) if joined else np.zeros(0)
    flat = np.abs(flat[np.isfinite(flat)])
    if not flat.size:
        return 1.0
    top = percentile(flat, CLIP_PERCENTILE)
    return top if top > 0 else (float(flat.max()) or 1.0)


def percentile(flat: np.ndarray, q: float) -> float:
    """``np.percentile(flat, q)`` of a 1-D array of finite numbers, by numpy's own arithmetic
    (linear: the two neighbours of the index (n - 1)·q/100, the step taken from the nearer
    one), without its np.unique, which imports numpy.ma (~8 ms) on a page's first call."""
    if flat.size == 1:
        return float(flat[0])
    at = (flat.size - 1) * (q / 100)
    below = math.floor(at)
    a, b = np.partition(flat, (below, below + 1))[[below, below + 1]].tolist()
    t, diff = at - below, b - a
    return b - diff * (1 - t) if t >= 0.5 else a + diff * t


def scale_for(kind: str, values) -> Scale:
    return Scale(kind, signed_limit(values) if kind == "signed" else 1.0)


def level(x: float, scale: Scale) -> int:
    """The colour step of x: −LEVELS … LEVELS (signed), 0 … LEVELS (prob)."""
    if not math.isfinite(x):
        return 0
    t = max(-1.0, min(1.0, x / scale.top))
    return round(max(0.0, t) * LEVELS) if scale.kind == "prob" else round(t * LEVELS)


def clipped(x: float, scale: Scale) -> bool:
    return scale.kind == "signed" and math.isfinite(x) and abs(x) > scale.top * (1 + 1e-12)


def cell_class(x: float, scale: Scale) -> str:
    """The CSS class of a cell: its colour step ("n3", "p7", "q4"), "c" when clipped."""
    if scale.kind == "ids":
        return "z"
    k = level(x, scale)
    name = f"q{k}" if scale.kind == "prob" else (f"n{-k}" if k < 0 else f"p{k}")
    return name + (" c" if clipped(x, scale) else "")


_STEPS = {"prob": [f"q{k}" for k in range(LEVELS + 1)],
          "signed": [f"n{-k}" if k < 0 else f"p{k}" for k in range(-LEVELS, LEVELS + 1)]}
_SIGNED_CLIPPED = _STEPS["signed"] + [name + " c" for name in _STEPS["signed"]]  # then clipped
# the class of each step, as arrays a block of steps indexes at once (``cell_classes``)
_STEP_NAMES = {"prob": np.array(_STEPS["prob"], dtype=object),
               "signed": np.array(_SIGNED_CLIPPED, dtype=object)}


def class_rows(block: np.ndarray, scale: Scale) -> list[list[str]]:
    """``cell_classes`` of a 2-D block, a list per row."""
    classes, width = cell_classes(block, scale), block.shape[1]
    return [classes[r * width:(r + 1) * width] for r in range(block.shape[0])]


def cell_classes(block: np.ndarray, scale: Scale) -> list[str]:
    """``cell_class`` of every number of a 2-D block, row after row, computed by numpy for the
    whole block (a page colours thousands of cells): the same steps (round half to even, as
    ``round``), non-finite numbers uncoloured, clipped ones marked."""
    if scale.kind == "ids":
        return ["z"] * block.size
    shown = np.where(np.isfinite(block), block, 0.0)
    t = np.minimum(np.maximum(shown / scale.top, -1.0), 1.0)  # np.clip, without its wrapper
    if scale.kind == "prob":
        at = np.rint(np.maximum(t, 0.0) * LEVELS)
    else:  # (a non-finite number, 0 in ``shown``, is never clipped)
        clip = np.abs(shown) > scale.top * (1 + 1e-12)
        at = np.rint(t * LEVELS) + np.where(clip, LEVELS + len(_STEPS["signed"]), LEVELS)
    return _STEP_NAMES[scale.kind][at.astype(np.intp)].ravel().tolist()


def fill(k: int, kind: str) -> tuple[int, int, int]:
    """The RGB fill of colour step k of a scale kind."""
    if kind == "prob":
        a = max(0, min(LEVELS, k)) / LEVELS
        return tuple(round(s + (e - s) * a) for s, e in zip(_P0, _P1, strict=True))
    end, a = (_POS if k >= 0 else _NEG), min(LEVELS, abs(k)) / LEVELS
    return tuple(round(s + (e - s) * a) for s, e in zip(_MID, end, strict=True))


def hex_of(rgb) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def luminance(rgb) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0–255 channels)."""
    def lin(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def ink(rgb) -> str:
    """Black or white text, whichever contrasts more with the fill."""
    black = contrast(rgb, (0, 0, 0))
    return INK_DARK if black >= contrast(rgb, (255, 255, 255)) else INK_LIGHT


def steps() -> list[tuple[str, tuple[int, int, int]]]:
    """Every colour step as (class, fill)."""
    out = [(f"n{k}", fill(-k, "signed")) for k in range(LEVELS, 0, -1)]
    out += [(f"p{k}", fill(k, "signed")) for k in range(LEVELS + 1)]
    return out + [(f"q{k}", fill(k, "prob")) for k in range(LEVELS + 1)]


def palette_css(scopes: tuple[str, ...] = (".hf .grid", ".hf .hm")) -> str:
    """One CSS rule per colour step with its text colour; for grids and heatmaps alike."""
    rules = []
    for cls, rgb in steps():
        selector = ",".join(f"{scope} .{cls}" for scope in scopes)
        rules.append(f"{selector}{{background:{hex_of(rgb)};color:{ink(rgb)}}}")
    rules.append(",".join(f"{s} .z" for s in scopes) + "{background:transparent;color:inherit}")
    rules += [f".hf .mx.role-{r}{{--role:{c}}}" for r, c in ROLES.items()]
    return "\n".join(rules)


def cell_rgb(x: float, scale: Scale) -> tuple[int, int, int]:
    """The fill of one value (figures draw with it: the page's mapping, step for step)."""
    if scale.kind == "ids":
        return (255, 255, 255)
    return fill(level(x, scale), scale.kind)


def figure_colours(value: np.ndarray, scale: Scale) -> np.ndarray:
    """An RGB image of a matrix (NaN and −∞ grey), in 0…1, for matplotlib's imshow."""
    masked = tuple(int(MASKED_FILL[i:i + 2], 16) for i in (1, 3, 5))
    out = np.empty(value.shape + (3,))
    for idx, x in np.ndenumerate(value):
        out[idx] = np.array(cell_rgb(x, scale) if math.isfinite(x) else masked) / 255
    return out


def shared_scales(matrices: list, pairs: list[tuple] = ()) -> dict[int, Scale]:
    """The scale of each matrix (by id()), one per group: matrices with the same scale_group
    share it, and so does each (tutorial, ours) pair of an erratum; a member whose kind differs
    from its group's keeps a scale of its own."""
    key = {id(m): m.scale_group or f"#{id(m)}" for m in matrices}
    for theirs, ours in pairs:
        key[id(theirs)] = theirs.scale_group or key.get(id(ours), f"#{id(ours)}")
    members: dict[str, list] = {}
    for m in [*matrices, *(t for t, _ in pairs)]:
        members.setdefault(key[id(m)], []).append(m)
    kinds = {id(m): kind_of(m) for group in members.values() for m in group}  # each asked once
    out = {}
    for group in members.values():
        kind = kinds[id(group[0])]
        same = [m for m in group if kinds[id(m)] == kind]
        scale = scale_for(kind, [m.value for m in same])
        for m in group:
            out[id(m)] = scale if kinds[id(m)] == kind else scale_for(kinds[id(m)], [m.value])
    return out
