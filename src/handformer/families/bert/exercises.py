"""BERT's own question kind: one GELU output, the operation its feed-forward network uses and
only this folder registers (ops.py); registered with the family (``Family.exercises``), so the
worksheet and the page's check ask it after the engine's ReLU (exercises/family_kinds.py)."""

from __future__ import annotations

from ...exercises import pick
from ...exercises.family_kinds import Kind
from ...exercises.question import Given, Question, tolerance


def gelu(tape, rng) -> Question | None:
    """GELU(h) = h · Φ(h) = h/2 · (1 + erf(h/√2)) at one cell."""
    step = pick.one(rng, pick.steps(tape, "gelu"))
    if step is None:
        return None
    pre = tape.value(step.inputs[0])
    at = pick.cell(rng, step.shape)
    given = (Given("ex.given.pre", "h", float(pre[at])),)
    answer = float(step.value[at])
    return Question("gelu", step.name, "value", at, given, answer, tolerance(answer),
                    "GELU(h) = h/2 · (1 + erf(h/√2))", "ex.ask.gelu", "ex.hint.gelu",
                    {"i": at[-2], "j": at[-1], "cell": list(at),
                     "first": f"{float(pre[at]):.5g} / √2"}, "ffn")



KINDS = (Kind("gelu", gelu, after="relu", levels=("easy", "medium"), part="ffn"),)
