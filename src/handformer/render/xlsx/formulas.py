"""Each operation of the tape as spreadsheet formulas over the blocks it reads.

A formula function gets the block it fills, the plan (to find its inputs' blocks) and the sheet
it is written on, and returns a function (i, j) → the formula of cell (i, j). Only functions that
LibreOffice Calc, Google Sheets and every Excel evaluate: MMULT, SUMPRODUCT, INDEX, MATCH, EXP,
LN, SIN, COS, SQRT, MAX, AVERAGE, VARP, IF, ROW, COLUMN; no dynamic arrays.

Note: every cell has its own formula, matrix products too (MMULT of a row and a column). One
array formula per block reads well and LibreOffice computes it on load, but after an edit
LibreOffice (7.x, xlsx loaded without recalculation) did not recompute ordinary formulas that
read cells of an array formula: the attention pattern kept its old numbers.
"""

from __future__ import annotations

import math

import numpy as np

from .layout import Block, XlsxError, a1

MASKED = -1e300  # the spreadsheet's −∞: EXP(MASKED − max) is 0, and it is shown as "−∞"


def number(x: float) -> str:
    return repr(float(x)).upper()


def times(factor: float) -> str:
    """×factor, written √k or /√k when that is what the number is."""
    square = round(factor * factor)
    if square > 0 and math.sqrt(square) == factor:
        return f"*SQRT({square})"
    inverse = round(1.0 / (factor * factor)) if factor else 0
    if inverse > 0 and 1.0 / math.sqrt(inverse) == factor:
        return f"/SQRT({inverse})"
    return f"*{number(factor)}"


def _inputs(block: Block, plan) -> list[Block]:
    """The blocks a step reads (the same head of a per-head input)."""
    return [plan.block(name, block.head) for name in block.step.inputs]


def _same_shape(block: Block, *others: Block) -> None:
    for other in others:
        if other.value.shape != block.value.shape:
            raise XlsxError(f"step {block.name!r} broadcasts {other.name!r} "
                            f"{other.value.shape} to {block.value.shape}; the workbook adds "
                            f"matrices of the same shape only")


def embed(block, plan, here):
    ids, table = _inputs(block, plan)
    return lambda i, j: f"=INDEX({table.area(here)},{ids.cell(0, i, here)}+1,{j + 1})"


def positional(block, plan, here):
    # pos is the row's distance from the block's first row; 2i is fixed per column
    first_row, d = block.row + 1, block.width

    def cell(i, j):
        trig = "SIN" if j % 2 == 0 else "COS"
        return f"={trig}((ROW()-{first_row})/10000^({2 * (j // 2)}/{d}))"

    return cell


def add(block, plan, here):
    a, b = _inputs(block, plan)
    _same_shape(block, a, b)
    return lambda i, j: f"={a.cell(i, j, here)}+{b.cell(i, j, here)}"


def scale(block, plan, here):
    (x,) = _inputs(block, plan)
    factor = times(block.step.attrs["factor"])
    return lambda i, j: f"={x.cell(i, j, here)}{factor}"


def identity(block, plan, here):
    (x,) = _inputs(block, plan)
    return lambda i, j: f"={x.cell(i, j, here)}"


def relu(block, plan, here):
    (x,) = _inputs(block, plan)
    return lambda i, j: f"=MAX(0,{x.cell(i, j, here)})"


def _affine(block, x, w, bias, here, first_col: int):
    """X W (+ b) over columns first_col… of W: row i of X times column j of W, per cell."""
    def cell(i, j):
        text = f"=MMULT({x.row_area(i, here)},{w.col_area(first_col + j, here)})"
        return text + (f"+{bias.cell(0, first_col + j, here)}" if bias is not None else "")

    return cell


def linear(block, plan, here):
    x, w, *bias = _inputs(block, plan)
    return _affine(block, x, w, bias[0] if bias else None, here, 0)


def head_proj(block, plan, here):
    x, w, *bias = (plan.block(name) for name in block.step.inputs)
    return _affine(block, x, w, bias[0] if bias else None, here, block.head * block.width)


def scores(block, plan, here):
    q, k = _inputs(block, plan)
    factor = times(block.step.attrs["scale"])
    return lambda i, j: f"=SUMPRODUCT({q.row_area(i, here)},{k.row_area(j, here)}){factor}"


def attend(block, plan, here):
    a, v = _inputs(block, plan)
    return lambda i, j: f"=MMULT({a.row_area(i, here)},{v.col_area(j, here)})"


def mask(block, plan, here):
    (s,) = _inputs(block, plan)
    allowed = np.broadcast_to(block.step.attrs["allowed"], block.step.value.shape)
    allowed = allowed[block.head] if block.head is not None else allowed
    if allowed.all():
        return lambda i, j: f"={s.cell(i, j, here)}"
    if not np.array_equal(allowed, np.tri(*allowed.shape, dtype=bool)):
        raise XlsxError(f"step {block.name!r} masks other than causally (padding); the "
                        f"workbook writes the causal mask only")
    # key j is seen by query i when j ≤ i: the cell's column and row within the block
    col, row = block.col + 1, block.row + 1
    return lambda i, j: (f"=IF(COLUMN()-{col}<=ROW()-{row},{s.cell(i, j, here)},"
                         f"{number(MASKED)})")


def softmax(block, plan, here):
    (s,) = _inputs(block, plan)

    def cell(i, j):
        row = s.row_area(i, here)
        return f"=EXP({s.cell(i, j, here)}-MAX({row}))/SUMPRODUCT(EXP({row}-MAX({row})))"

    return cell


def merge_heads(block, plan, here):
    heads = plan.blocks[block.step.inputs[0]]
    d_v = heads[0].width
    return lambda i, j: f"={heads[j // d_v].cell(i, j % d_v, here)}"


def layer_norm(block, plan, here):
    x, gamma, beta = _inputs(block, plan)
    eps = number(block.step.attrs["eps"])

    def cell(i, j):
        row = x.row_area(i, here)
        return (f"=({x.cell(i, j, here)}-AVERAGE({row}))/SQRT(VARP({row})+{eps})"
                f"*{gamma.cell(0, j, here)}+{beta.cell(0, j, here)}")

    return cell


def cross_entropy(block, plan, here):
    weights = np.asarray(block.step.attrs["weights"])
    if not np.all(weights == 1):
        raise XlsxError("the workbook writes a loss over every position (no padding weights)")
    terms = plan.block(f"{block.name}.per_position")
    return lambda i, j: f"=AVERAGE({terms.area(here)})"


def per_position(block, plan, here):
    """log Σ exp(z) − (1 − ε) z_target − ε mean(z), log Σ exp shifted by the row's max."""
    logits = plan.block(block.step.inputs[0])
    targets = plan.block(f"{block.step.name}.targets")
    smoothing = float(block.step.attrs.get("smoothing", 0.0))

    def cell(i, j):
        row = logits.row_area(j, here)
        picked = f"INDEX({row},1,{targets.cell(0, j, here)}+1)"
        text = f"=LN(SUMPRODUCT(EXP({row}-MAX({row}))))+MAX({row})"
        if smoothing:
            return text + f"-{number(1 - smoothing)}*{picked}-{number(smoothing)}*AVERAGE({row})"
        return text + f"-{picked}"

    return cell


def argmax(block, plan, here):
    """The column label (the word) of the row's largest probability."""
    probs = plan.block(block.step.name)
    labels = f"{a1(probs.row - 1, probs.col)}:{a1(probs.row - 1, probs.col + probs.width - 1)}"

    def cell(i, j):
        row = probs.row_area(i, here)
        return f"=INDEX({labels},1,MATCH(MAX({row}),{row},0))"

    return cell


STEP_FORMULAS = {
    "embed": embed, "positional": positional, "add": add, "scale": scale,
    "identity": identity, "relu": relu, "linear": linear, "head_proj": head_proj,
    "scores": scores, "attend": attend, "mask": mask, "softmax": softmax,
    "merge_heads": merge_heads, "layer_norm": layer_norm, "cross_entropy": cross_entropy,
}
HELPER_FORMULAS = {"per_position": per_position, "argmax": argmax}
SUPPORTED_OPS = set(STEP_FORMULAS) | {"input"}
NEEDED_ATTRS = {"scale": ("factor",), "scores": ("scale",), "mask": ("allowed",),
                "layer_norm": ("eps",), "cross_entropy": ("targets", "weights"),
                "select_head": ("index",)}


def formulas_of(block: Block, plan, here: str):
    """The formula of each cell of a computed block, as a function of (i, j)."""
    if block.kind == "helper":
        return HELPER_FORMULAS[block.name.rsplit(".", 1)[1]](block, plan, here)
    return STEP_FORMULAS[block.step.op](block, plan, here)
