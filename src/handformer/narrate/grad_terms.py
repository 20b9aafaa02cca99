"""How any cell of a gradient panel's matrix is made from the matrices the panel draws, so a
page can show a clicked cell's arithmetic: ∂L/∂X at (i, j) is the sum of what each reader sends
back (one share each): a dot product of a row or column of the upstream gradient with a row or
column of a saved value (∂L/∂Y·Wᵀ, ∂L/∂S·K/√d_k, Aᵀ·∂L/∂Z), a copy, a gate (ReLU, the mask),
a softmax's correction; a weight's gradient Xᵀ·∂L/∂Y, a bias's column sum. Each recipe names
matrices by their ``Matrix.name``; one that needs a matrix the panel does not draw (a reader
told otherwise: a layer norm, the loss) is left out, and then that matrix gets none."""

from __future__ import annotations

import numpy as np

from .context import Ctx
from .document import Matrix
from .grad_formula import readers


def attach(ctx: Ctx, name: str, equation: list) -> None:
    """Give the panel's matrices of ∂L/∂``name`` and of its parameters' gradients their
    recipe (``Matrix.terms``), where every matrix a recipe reads is drawn in ``equation``."""
    drawn = {m.name for m in equation if isinstance(m, Matrix)}
    uses = readers(ctx.tape, name)
    for m in (x for x in equation if isinstance(x, Matrix)):
        if m.name == f"grad.{name}" or m.name.startswith(f"grad.{name}.head."):
            h = int(m.name.rsplit(".", 1)[1]) if ".head." in m.name else None
            terms = [t for r in uses for t in _shares(ctx, r.use, r.k, h, r.via)]
        else:
            terms = [_param(ctx, name, m.name)]
        if terms and all(terms) and all(_reads(t) <= drawn for t in terms):
            m.terms = terms


def _reads(term: dict) -> set[str]:
    return {v for k, v in term.items() if k in ("a", "b", "x", "p")}


def _up(use, h: int | None) -> str:
    """The upstream gradient's matrix as grad_reads draws it (one head's, for a head's cell)."""
    return f"grad.{use.name}" if h is None else f"grad.{use.name}.head.{h}"


def _value(name: str, h: int | None) -> str:
    base, leaf = name.rsplit(".", 1)
    return name if h is None else f"{base}.head.{h}.{leaf}"


def _shares(ctx: Ctx, use, k: int, h: int | None, via: tuple = ()) -> list[dict | None]:
    """A reader's share; a projection into heads sends one back from every head (∂L/∂X =
    Σ_h ∂L/∂Q_h·(W^Q_h)ᵀ, W^Q_h the head's columns of W^Q); through the heads joined, head h's
    cell (i, j) is row i of ∂L/∂Y with row h·d_v + j of W^O."""
    if any(s.op == "merge_heads" for s in via):
        if use.op != "linear" or k != 0 or h is None:
            return [None]
        width = int(np.shape(ctx.value(via[0].inputs[0]))[-1])
        return [{"kind": "dot", "a": _up(use, None), "ax": "row", "b": use.inputs[1],
                 "bx": "row", "bshift": h * width}]
    if use.op == "head_proj" and k == 0 and h is None:
        heads, width = np.shape(ctx.grad(use.name))[0], np.shape(ctx.grad(use.name))[-1]
        return [{"kind": "dot", "a": f"grad.{use.name}.head.{g}", "ax": "row",
                 "b": use.inputs[1], "bx": "row", "boff": g * width} for g in range(heads)]
    return [_share(ctx, use, k, h)]


def _share(ctx: Ctx, use, k: int, h: int | None) -> dict | None:
    op = use.op
    if op in ("add", "identity"):
        return {"kind": "copy", "a": _up(use, h)}
    if op == "relu":
        return {"kind": "gate", "a": _up(use, h), "x": _value(use.inputs[0], h)}
    if op == "mask" and h is not None:
        return {"kind": "mask", "a": _up(use, h), "x": _value(use.name, h)}
    if op == "softmax" and h is not None:
        return {"kind": "softmax", "a": _up(use, h), "p": _value(use.name, h)}
    if op == "merge_heads" and h is not None:
        width = int(np.shape(ctx.value(use.inputs[0]))[-1])
        return {"kind": "copy", "a": f"grad.{use.name}", "off": h * width}
    if op == "linear" and k == 0:
        return {"kind": "dot", "a": _up(use, None), "ax": "row", "b": use.inputs[1], "bx": "row"}
    if op == "linear" and k == 1:  # a weight read as a value (tied): Xᵀ·∂L/∂Y, column by column
        return {"kind": "dot", "a": use.inputs[0], "ax": "col", "b": _up(use, None), "bx": "col"}
    if op == "scores" and h is not None:
        q = ctx.value(use.inputs[0])
        scale = float(use.attrs.get("scale", 1.0 / np.sqrt(np.shape(q)[-1])))
        other = _value(use.inputs[1 - k], h)
        return {"kind": "dot", "a": _up(use, h), "ax": "row" if k == 0 else "col", "b": other,
                "bx": "col", "scale": scale}
    if op == "attend" and h is not None:
        if k == 0:  # ∂L/∂A = ∂L/∂Z·Vᵀ: row i of ∂L/∂Z with row j of V
            return {"kind": "dot", "a": _up(use, h), "ax": "row",
                    "b": _value(use.inputs[1], h), "bx": "row"}
        return {"kind": "dot", "a": _value(use.inputs[0], h), "ax": "col", "b": _up(use, h),
                "bx": "col"}  # ∂L/∂V = Aᵀ·∂L/∂Z: column i of A with column j of ∂L/∂Z
    return None


def _param(ctx: Ctx, name: str, matrix: str) -> dict | None:
    """∂L/∂W = Xᵀ·∂L/∂Y (column i of X with column j of ∂L/∂Y); ∂L/∂b = Σₜ ∂L/∂Yₜ."""
    step = ctx.tape.index[name]
    if step.op != "linear" or not matrix.startswith("grad."):
        return None
    param = matrix.removeprefix("grad.")
    if param == step.inputs[1]:
        return {"kind": "dot", "a": step.inputs[0], "ax": "col", "b": f"grad.{name}", "bx": "col"}
    if len(step.inputs) > 2 and param == step.inputs[2]:
        return {"kind": "colsum", "a": f"grad.{name}"}
    return None
