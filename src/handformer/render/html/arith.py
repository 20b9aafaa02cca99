"""What the page's script needs to show a clicked cell's arithmetic (templates/arith.js): the
kind of computation an equation draws, read off its operators, and its constants (the scale of
the scores, the learning rate), as the ``data-`` attributes of the equation."""

from __future__ import annotations

import re

from ...narrate.document import Matrix

SQRT = re.compile(r"\\div \\sqrt\{([0-9.]+)\}")


def arith_of(items: list) -> dict[str, str]:
    """``{"arith": kind, ...}`` for an equation whose cells the script can recompute, else {}.

    matmul: A · B (÷ √d) (+ b) = C; add: A + B = C; update: θ − η · g = θ′; softmax: S → P;
    norm: R ⇒ (μ, σ) ⇒ LN(R); a probability table alone: softmax of its logits (drawn in the
    step before); the loss's table: −log p per position."""
    ops = [x for x in items if isinstance(x, str)]
    mats = [x for x in items if isinstance(x, Matrix)]
    if len(mats) == 1:
        name = mats[0].name
        if name.endswith(".probs"):
            return {"arith": "softmax", "from": name[: -len("probs")] + "logits"}
        return {"arith": "loss"} if name == "loss.terms" else {}
    if len(mats) == 3 + ("+" in ops) and ops and ops[0] == r"\cdot" and ops[-1] == "=":
        out = {"arith": "matmul", "bias": "1" if "+" in ops else ""}
        scale = next((SQRT.fullmatch(op) for op in ops if SQRT.fullmatch(op)), None)
        return out | ({"div": scale.group(1)} if scale else {})
    if len(mats) == 3 and ops == ["+", "="]:
        return {"arith": "add"}
    if len(mats) == 3 and len(ops) == 4 and ops[0] == "-" and ops[2:] == [r"\cdot", "="]:
        return {"arith": "update", "eta": ops[1]}
    if len(mats) == 2 and ops == [r"\rightarrow"]:
        return {"arith": "softmax"}
    if len(mats) == 3 and ops == [r"\Rightarrow", r"\Rightarrow"]:
        return {"arith": "norm"}
    return {}
