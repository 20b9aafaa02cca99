"""What a walkthrough is made of, for every renderer: sections of text, formulas and matrices.

Narration builds these from a tape (reading numbers off it, never computing); renderers
(terminal, Markdown, HTML, figures) draw them and never see the model.
"""

from __future__ import annotations

import numpy as np

from ..records import Frozen, Record


class Highlight(Frozen):
    """The worked cell, AI-by-Hand style: the cell the text works out, and the rows and columns
    of this matrix that make it (e.g. row i of Q and column j of Kᵀ for the score S_ij)."""

    FIELDS = ("cell", "rows", "cols")

    def __init__(self, cell: tuple[int, int] | None = None, rows: tuple[int, ...] = (),
                 cols: tuple[int, ...] = ()):
        self._set(cell=cell, rows=rows, cols=cols)


class Matrix(Record):
    """One matrix to draw, with its labels (tokens for rows, dimensions for columns).

    name: the tape step or parameter name, e.g. "encoder.0.self_attn.head.0.q"; symbol: the
    LaTeX symbol shown beside it, e.g. "Q^{(1)}"; value: 1-D or 2-D.
    kind: "matrix", "pattern" (attention heatmap), "vector", "positional"; note: e.g. "the
    tutorial's value" for a comparison matrix; highlight: the worked cell and what makes it.
    scale: the colour: "prob" (a fixed 0…1 single-hue scale: probabilities, attention weights),
    "signed" (diverging around 0), "ids" (no colour), "auto" (chosen from the values);
    scale_group: matrices with the same group share one colour limit; role: "q", "k" or "v", a
    colour identity kept wherever the matrix appears; source: id of the section whose step
    made this matrix ("" if it is an input).
    keep_rows, keep_cols: rows and columns the narration names, never elided; col_groups:
    widths of consecutive column groups drawn apart, e.g. (4, 4): Concat's columns by head.
    extra: numbers a clicked cell's arithmetic needs that are not drawn (a layer norm's γ and
    β); power: drawn as value × 10^power (a matrix of tiny numbers, see numbers.small_scaled);
    terms: how any cell is made from other matrices of its section (narrate/grad_terms.py),
    one share per entry: {"kind": "dot", "a": name, "ax": "row", "b": name, "bx": "col"}, ...
    """

    FIELDS = ("name", "symbol", "value", "rows", "cols", "kind", "note", "highlight", "scale",
              "scale_group", "role", "source", "keep_rows", "keep_cols", "col_groups", "extra",
              "power", "terms")

    def __init__(self, name: str, symbol: str, value: np.ndarray, rows: list[str] | None = None,
                 cols: list[str] | None = None, kind: str = "matrix", note: str = "",
                 highlight: Highlight | None = None, scale: str = "auto",
                 scale_group: str = "", role: str = "", source: str = "",
                 keep_rows: tuple[int, ...] = (), keep_cols: tuple[int, ...] = (),
                 col_groups: tuple[int, ...] = (), extra: dict[str, np.ndarray] | None = None,
                 power: int = 0, terms: list[dict] | None = None):
        self.name, self.symbol, self.value, self.rows, self.cols = name, symbol, value, rows, cols
        self.kind, self.note, self.highlight, self.scale = kind, note, highlight, scale
        self.scale_group, self.role, self.source = scale_group, role, source
        self.keep_rows, self.keep_cols, self.col_groups = keep_rows, keep_cols, col_groups
        self.extra = {} if extra is None else extra
        self.power = power
        self.terms = [] if terms is None else terms

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(np.shape(self.value))


class Callout(Record):
    """An erratum of the seed tutorial (D1–D18 in docs/errata.md), told where it occurs: its
    code ("D1"), its text, the tutorial's matrix shown beside ours (D1, D5, D6), the one line
    shown in the step that opens to the text ("the comic differs here: 17.175 vs 5.725"), and
    whether it was told in full in an earlier step (``repeat``: a renderer may show the
    summary alone; never at --level all)."""

    FIELDS = ("code", "text", "tutorial", "summary", "repeat")

    def __init__(self, code: str, text: str, tutorial: Matrix | None = None, summary: str = "",
                 repeat: bool = False):
        self.code, self.text, self.tutorial = code, text, tutorial
        self.summary, self.repeat = summary, repeat


class Edge(Record):
    """What flows out of a block along an arrow: the tape step that holds it (e.g.
    "encoder.0.ln1.out") and its shape ("7×6")."""

    FIELDS = ("step", "shape")

    def __init__(self, step: str, shape: str):
        self.step, self.shape = step, shape


class Block(Record):
    """One box of the architecture diagram: a sub-layer, a stack, the prediction.

    id: e.g. "encoder.0.self_attn"; label: in the reader's language; kind: "embed",
    "attention", "norm", "ffn", "linear", "stack", "output"; section: id of the first section
    that computes it (for links); detail: sizes, e.g. "1 head, d_k 4"; number: the step number
    of ``section`` as the language tells it ("Step 7"); out: what leaves the block (a leaf),
    for the arrow below it; sum: pre-norm's residual sum right after this sub-layer
    (x + sublayer(norm(x)))."""

    FIELDS = ("id", "label", "kind", "section", "detail", "number", "children", "out", "sum")

    def __init__(self, id: str, label: str, kind: str, section: str = "", detail: str = "",
                 number: str = "", children: list[Block] | None = None, out: Edge | None = None,
                 sum: Edge | None = None):
        self.id, self.label, self.kind = id, label, kind
        self.section, self.detail, self.number = section, detail, number
        self.children = [] if children is None else children
        self.out, self.sum = out, sum


class Architecture(Record):
    """The model actually run, as the overview draws it: stacks of layers of sub-layers
    (``blocks``, in reading order: source embedding, encoder, target embedding, ...), its
    ``sizes`` (d_model, heads, d_k, d_ff, ...) and the encoder's output M (``memory``), read by
    every cross-attention."""

    FIELDS = ("blocks", "sizes", "memory")

    def __init__(self, blocks: list[Block], sizes: dict[str, int] | None = None,
                 memory: Edge | None = None):
        self.blocks = blocks
        self.sizes = {} if sizes is None else sizes
        self.memory = memory


class Section(Record):
    """One panel of the walkthrough.

    id: a stable anchor, e.g. "encoder.0.self_attn.head.0.scores" or "dataset".
    number: the stage of the model it belongs to, in the tutorial's numbering extended past its
    end ("7", "12b", "14" the loss, "15" a gradient, "16" the update): what --steps selects by.
    title: without the number (renderers that draw the number apart use it as it is).
    formula: LaTeX, no $ delimiters. equation: the drawing, left to right: matrices with
    operators between them, e.g. [Matrix X, "·", Matrix W_Q, "=", Matrix Q].
    steps: the tape names this section shows. phase: "text", "forward", "loss", "backward",
    "update", "decode", "recap". prefix: the number as the language tells it before a title,
    e.g. "Step 7 · ". reads / feeds: ids of the sections whose outputs it reads / that read
    its output. next: the "Next: …" sentence, also told as the last paragraph (a renderer that
    draws the flow with its own links and numbers, the page, leaves that paragraph out).
    place: where it sits, outermost first, in the reader's language, for a nested table of
    contents, e.g. ("Encoder", "Layer 1", "Self-attention", "Head 1"). level: "overview" (the
    map and the recap), "steps", "all" (every detail). architecture: on the overview section
    only. panel: this section's place in the walkthrough, 1, 2, 3 … in reading order (every
    format draws it and every reference, "Step N", "← from", "goes to", uses it). tutorial:
    the seed tutorial's own step shown here ("7"), "" where it has none; tutorial_label: the
    same in the reader's language ("the tutorial's step 7"). told_in: ids of the sections
    referred back to; told: the paragraph that refers back to them ("(Explained in …)").
    """

    FIELDS = ("id", "number", "title", "paragraphs", "formula", "equation", "callouts", "steps",
              "phase", "prefix", "reads", "feeds", "next", "place", "level", "architecture",
              "panel", "tutorial", "tutorial_label", "told_in", "told")

    def __init__(self, id: str, number: str, title: str, paragraphs: list[str],
                 formula: str = "", equation: list[Matrix | str] | None = None,
                 callouts: list[Callout] | None = None, steps: list[str] | None = None,
                 phase: str = "forward", prefix: str = "", reads: list[str] | None = None,
                 feeds: list[str] | None = None, next: str = "", place: tuple[str, ...] = (),
                 level: str = "steps", architecture: Architecture | None = None,
                 panel: int = 0, tutorial: str = "", tutorial_label: str = "",
                 told_in: list[str] | None = None, told: str = ""):
        self.id, self.number, self.title, self.paragraphs = id, number, title, paragraphs
        self.formula = formula
        self.equation = [] if equation is None else equation
        self.callouts = [] if callouts is None else callouts
        self.steps = [] if steps is None else steps
        self.phase, self.prefix = phase, prefix
        self.reads = [] if reads is None else reads
        self.feeds = [] if feeds is None else feeds
        self.next, self.place, self.level, self.architecture = next, place, level, architecture
        self.panel, self.tutorial, self.tutorial_label = panel, tutorial, tutorial_label
        self.told_in = [] if told_in is None else told_in
        self.told = told

    @property
    def heading(self) -> str:
        """The title as read on its own, number first: "Step 7 · Queries ..."."""
        return self.prefix + self.title
