"""What a walkthrough is made of, for every renderer: sections of text, formulas and matrices.

Narration builds these from a tape (reading numbers off it, never computing); renderers
(terminal, Markdown, HTML, figures) draw them and never see the model.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Matrix:
    """One matrix to draw, with its labels (tokens for rows, dimensions for columns)."""

    name: str  # tape step or parameter name, e.g. "encoder.0.self_attn.head.0.q"
    symbol: str  # LaTeX symbol shown beside it, e.g. "Q^{(1)}"
    value: np.ndarray  # 1-D or 2-D
    rows: list[str] | None = None
    cols: list[str] | None = None
    kind: str = "matrix"  # "matrix", "pattern" (attention heatmap), "vector", "positional"
    note: str = ""  # e.g. "the tutorial's value" for a comparison matrix

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(np.shape(self.value))


@dataclass
class Callout:
    """An erratum of the seed tutorial (SPEC.md D1–D18), told where it occurs."""

    code: str  # "D1"
    text: str
    tutorial: Matrix | None = None  # the tutorial's number, shown beside ours (D1, D5, D6)


@dataclass
class Section:
    """One panel of the walkthrough."""

    id: str  # stable anchor, e.g. "encoder.0.self_attn.head.0.scores" or "dataset"
    number: str  # the tutorial's step number, e.g. "7", "12b"
    title: str  # without the number: renderers that draw the number apart use it as it is
    paragraphs: list[str]
    formula: str = ""  # LaTeX, no $ delimiters
    # The drawing, left to right: matrices with operators between them, e.g.
    # [Matrix X, "·", Matrix W_Q, "=", Matrix Q]
    equation: list[Matrix | str] = field(default_factory=list)
    callouts: list[Callout] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)  # the tape names this section shows
    phase: str = "forward"  # "text", "forward", "loss", "backward", "update", "decode"
    prefix: str = ""  # the number as the language tells it before a title, e.g. "Step 7 · "

    @property
    def heading(self) -> str:
        """The title as read on its own, number first: "Step 7 · Queries ..."."""
        return self.prefix + self.title
