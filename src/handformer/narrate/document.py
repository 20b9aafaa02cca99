"""What a walkthrough is made of, for every renderer: sections of text, formulas and matrices.

Narration builds these from a tape (reading numbers off it, never computing); renderers
(terminal, Markdown, HTML, figures) draw them and never see the model.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Highlight:
    """The worked cell, AI-by-Hand style: the cell the text works out, and the rows and columns
    of this matrix that make it (e.g. row i of Q and column j of Kᵀ for the score S_ij)."""

    cell: tuple[int, int] | None = None
    rows: tuple[int, ...] = ()
    cols: tuple[int, ...] = ()


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
    highlight: Highlight | None = None  # the worked cell and what makes it
    # Colour: "prob" (a fixed 0…1 single-hue scale: probabilities, attention weights),
    # "signed" (diverging around 0), "ids" (no colour), "auto" (chosen from the values).
    scale: str = "auto"
    scale_group: str = ""  # matrices with the same group share one colour limit
    role: str = ""  # "q", "k" or "v": a colour identity kept wherever the matrix appears
    source: str = ""  # id of the section whose step made this matrix ("" if it is an input)
    keep_rows: tuple[int, ...] = ()  # rows the narration names: never elided
    keep_cols: tuple[int, ...] = ()  # columns the narration names: never elided
    # Widths of consecutive column groups drawn apart, e.g. (4, 4): Concat's columns by head
    col_groups: tuple[int, ...] = ()
    # Numbers a clicked cell's arithmetic needs that are not drawn: a layer norm's γ and β
    extra: dict[str, np.ndarray] = field(default_factory=dict)
    # Drawn as value × 10^power (a matrix of tiny numbers, see context.small_scaled)
    power: int = 0
    # How any cell is made from other matrices of its section (narrate/grad_terms.py), one
    # share per entry: {"kind": "dot", "a": name, "ax": "row", "b": name, "bx": "col"}, ...
    terms: list[dict] = field(default_factory=list)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(np.shape(self.value))


@dataclass
class Callout:
    """An erratum of the seed tutorial (D1–D18 in docs/errata.md), told where it occurs."""

    code: str  # "D1"
    text: str
    tutorial: Matrix | None = None  # the tutorial's number, shown beside ours (D1, D5, D6)
    # One line shown in the step, opening to ``text``: "the comic differs here: 17.175 vs 5.725"
    summary: str = ""
    # Told in full in an earlier step: a renderer may show the summary alone (never at --level all)
    repeat: bool = False


@dataclass
class Edge:
    """What flows out of a block along an arrow: the tape step that holds it and its shape."""

    step: str  # e.g. "encoder.0.ln1.out"
    shape: str  # e.g. "7×6"


@dataclass
class Block:
    """One box of the architecture diagram: a sub-layer, a stack, the prediction."""

    id: str  # e.g. "encoder.0.self_attn"
    label: str  # in the reader's language
    kind: str  # "embed", "attention", "norm", "ffn", "linear", "stack", "output"
    section: str = ""  # id of the first section that computes it (for links)
    detail: str = ""  # sizes, e.g. "1 head, d_k 4"
    number: str = ""  # the step number of ``section`` as the language tells it ("Step 7")
    children: list[Block] = field(default_factory=list)
    out: Edge | None = None  # what leaves the block (a leaf), for the arrow below it
    # pre-norm: the residual sum right after this sub-layer (x + sublayer(norm(x)))
    sum: Edge | None = None


@dataclass
class Architecture:
    """The model actually run, as the overview draws it: stacks of layers of sub-layers."""

    blocks: list[Block]  # in reading order: source embedding, encoder, target embedding, ...
    sizes: dict[str, int] = field(default_factory=dict)  # d_model, heads, d_k, d_ff, ...
    memory: Edge | None = None  # the encoder's output M, read by every cross-attention


@dataclass
class Section:
    """One panel of the walkthrough."""

    id: str  # stable anchor, e.g. "encoder.0.self_attn.head.0.scores" or "dataset"
    # The stage of the model it belongs to, in the tutorial's numbering extended past its end
    # ("7", "12b", "14" the loss, "15" a gradient, "16" the update): what --steps selects by
    number: str
    title: str  # without the number: renderers that draw the number apart use it as it is
    paragraphs: list[str]
    formula: str = ""  # LaTeX, no $ delimiters
    # The drawing, left to right: matrices with operators between them, e.g.
    # [Matrix X, "·", Matrix W_Q, "=", Matrix Q]
    equation: list[Matrix | str] = field(default_factory=list)
    callouts: list[Callout] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)  # the tape names this section shows
    phase: str = "forward"  # "text", "forward", "loss", "backward", "update", "decode", "recap"
    prefix: str = ""  # the number as the language tells it before a title, e.g. "Step 7 · "
    reads: list[str] = field(default_factory=list)  # ids of the sections whose outputs it reads
    feeds: list[str] = field(default_factory=list)  # ids of the sections that read its output
    # The "Next: …" sentence, also told as the last paragraph; a renderer that draws the flow
    # with its own links and numbers (the page) leaves that paragraph out
    next: str = ""
    # Where it sits, outermost first, in the reader's language, for a nested table of contents:
    # e.g. ("Encoder", "Layer 1", "Self-attention", "Head 1").
    place: tuple[str, ...] = ()
    level: str = "steps"  # "overview" (the map and the recap), "steps", "all" (every detail)
    architecture: Architecture | None = None  # on the overview section only
    # The panel number: this section's place in the walkthrough, 1, 2, 3 … in reading order.
    # Every format draws it and every reference ("Step N", "← from", "goes to") uses it.
    panel: int = 0
    tutorial: str = ""  # the seed tutorial's own step shown here ("7"), "" where it has none
    tutorial_label: str = ""  # the same in the reader's language: "the tutorial's step 7"
    told_in: list[str] = field(default_factory=list)  # ids of the sections referred back to
    told: str = ""  # the paragraph that refers back to them ("(Explained in …)")

    @property
    def heading(self) -> str:
        """The title as read on its own, number first: "Step 7 · Queries ..."."""
        return self.prefix + self.title
