"""Why the backward pass looks the way it does, told once, at the first panel where each fact is
at work: a sum copies its gradient to both inputs, the residual path keeps gradients alive, the
softmax's Jacobian gives A ⊙ (G − rowsum(G ⊙ A)), layer norm's backward subtracts two means. (Why
a tied table's gradient is a sum is told in its own panel, narrate/tied.py.)"""

from __future__ import annotations

from .context import Ctx
from .grad_formula import readers


def why(ctx: Ctx, uses: list, told: list[str]) -> list[str]:
    """The "why" notes for a panel of ∂L/∂X whose readers are ``uses`` (grad_formula.Reader);
    ``told``: the steps the panel shows (X and those folded into it: ∂L/∂S′ beside ∂L/∂S), the
    first X, whose own formula a layer norm's panel shows (∂L/∂X of its input)."""
    ops = {r.use.op for r in uses}
    folded = {r.use.op for step in told[1:] for r in readers(ctx.tape, step)
              if r.use.name not in told}
    notes = []
    if "add" in ops and ctx.first("why.grad.sum"):
        notes.append(ctx.t("why.grad.sum"))
    if "add" in ops and len(uses) > 1 and ctx.first("why.grad.residual"):
        notes.append(ctx.t("why.grad.residual"))
    if "softmax" in ops | folded and ctx.first("why.grad.softmax"):
        notes.append(ctx.t("why.grad.softmax"))
    norm = "layer_norm" in ops or ctx.tape.index[told[0]].op == "layer_norm"
    if norm and ctx.first("why.grad.norm"):
        notes.append(ctx.t("why.grad.norm"))
    return notes
