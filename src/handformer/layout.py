"""The one layout policy of every renderer: which rows and columns of a matrix are shown, and
how a number is written. A leaf module (NumPy only), so narration can write numbers by it too.

A large matrix keeps its first and last indices along each axis with one gap (None) between
them; a number is rounded at the chosen precision, infinities spelled out, never "-0.000".
Renderers differ only in the sizes they pass (a terminal line is narrower than a page) and in
how they spell infinity and NaN (``Spelling``), never in the rule.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

# Pages, Markdown and figures draw a matrix in full up to these sizes; larger ones show their
# corners (head + tail).
MAX_ROWS, HEAD_ROWS, TAIL_ROWS = 16, 6, 2
MAX_COLS, HEAD_COLS, TAIL_COLS = 24, 8, 2


class Spelling(NamedTuple):
    """How the non-finite numbers are written."""

    nan: str = "nan"
    neg_inf: str = "−∞"
    inf: str = "∞"


PAGE = Spelling()  # HTML, Markdown, figures: a true minus sign
PLAIN = Spelling(nan="·", neg_inf="-∞")  # the terminal: ASCII minus, NaN as a dot


def elide(n: int, limit: int, head: int, tail: int) -> list[int | None]:
    """Indices shown along one axis: all of them, or head, None (the gap), tail."""
    if n <= limit:
        return list(range(n))
    return list(range(head)) + [None] + list(range(n - tail, n))


def elide_keeping(n: int, limit: int, head: int, tail: int,
                  keep=()) -> list[int | None]:
    """``elide``, never hiding the indices in ``keep`` (the rows and columns the narration
    names): they are shown with a gap (None) on each side where something was left out."""
    wanted = {i for i in keep if 0 <= i < n}
    if n <= limit or not wanted:
        return elide(n, limit, head, tail) if n > limit else list(range(n))
    shown = sorted(set(range(head)) | set(range(n - tail, n)) | wanted)
    out: list[int | None] = []
    for i in shown:
        if out and out[-1] is not None and i > out[-1] + 1:
            out.append(None)
        out.append(i)
    return out


def hidden_counts(shown: list[int | None], n: int) -> list[int]:
    """For each gap (None) of ``shown``, how many indices it stands for."""
    counts = []
    for k, i in enumerate(shown):
        if i is None:
            before = shown[k - 1] if k else -1
            after = shown[k + 1] if k + 1 < len(shown) else n
            counts.append(after - before - 1)
    return counts


def shown_rows(n: int, limit: int = MAX_ROWS) -> list[int | None]:
    return elide(n, limit, HEAD_ROWS, TAIL_ROWS)


def shown_cols(n: int, limit: int = MAX_COLS) -> list[int | None]:
    return elide(n, limit, HEAD_COLS, TAIL_COLS)


def number(x: float, precision: int, spelling: Spelling = PAGE) -> str:
    """A number at the shown precision; infinities and NaN spelled out; no "-0.000"."""
    if math.isnan(x):
        return spelling.nan
    if math.isinf(x):
        return spelling.neg_inf if x < 0 else spelling.inf
    text = f"{x:.{precision}f}"
    if text[0] == "-" and float(text) == 0:
        text = text[1:]
    return text


def numbers(xs: list[float], precision: int, spelling: Spelling = PAGE) -> list[str]:
    """``number`` of each number, in one C-level format for all of them (a page writes
    thousands), spelled again by ``number`` only where it would differ (NaN, infinities,
    "-0.000")."""
    if not xs:
        return []
    joined = " ".join([f"%.{precision}f"] * len(xs)) % tuple(xs)
    out = joined.split(" ")
    if "n" in joined or "f" in joined or f"{-0.0:.{precision}f}" in out:  # nan, inf, "-0.000"
        for k, text in enumerate(out):
            if text[-1] in "nf" or (text[0] == "-" and not text.strip("-0.")):
                out[k] = number(xs[k], precision, spelling)
    return out


def number_rows(block: np.ndarray, precision: int) -> str:
    """A block of numbers as compact data: rows joined by ";", numbers by " ", at the precision,
    "-inf" for −∞, no "-0.000" (what ``number`` writes, in one C-level format per row)."""
    with np.errstate(invalid="ignore"):
        block = np.where(np.abs(block) < 0.5 * 10.0 ** -precision, 0.0, block)
    row = " ".join([f"%.{precision}f"] * block.shape[1])
    return ";".join(row % tuple(r) for r in block.tolist())
