"""One exercise: the numbers it gives, the one number it asks for, and where on the tape that
number is (its step, the field of the step, its cell), so the answer is read, never recomputed.

    >>> from handformer import pipeline
    >>> from handformer.exercises.question import read
    >>> tape = pipeline.run({}).tape
    >>> read(tape, "src.ids", "value", (2,))
    7.0
"""

from __future__ import annotations

import numpy as np

from ..records import Frozen

# Where a number lives on the tape: a step's value, a statistic the step kept beside its value
# (layer norm's row mean and σ), a gradient, or a parameter after the update.
FIELDS = ("value", "extras.mean", "extras.std", "grad", "update.after")


class Given(Frozen):
    """One number (or a row of numbers) handed to the learner: what it is (an i18n key), its
    symbol, its value in full (the worksheet shows it to ``digits`` significant digits)."""

    FIELDS = ("label", "symbol", "value", "digits")

    def __init__(self, label: str, symbol: str, value: float | list, digits: int = 5):
        self._set(label=label, symbol=symbol, value=value, digits=digits)


class Question(Frozen):
    """The question of ``kind`` about ``step`` at ``cell``; ``ask`` is the i18n key of its
    sentence, filled with ``words``; ``hint`` the key of its first-term hint."""

    FIELDS = ("kind", "step", "field", "cell", "given", "answer", "tolerance", "formula", "ask",
              "hint", "words", "part")

    def __init__(self, kind: str, step: str, field: str, cell: tuple[int, ...],
                 given: tuple[Given, ...], answer: float, tolerance: float, formula: str,
                 ask: str, hint: str, words: dict | None = None, part: str = "forward"):
        self._set(kind=kind, step=step, field=field, cell=cell, given=given, answer=answer,
                  tolerance=tolerance, formula=formula, ask=ask, hint=hint,
                  words={} if words is None else words, part=part)

    def accepts(self, typed: float) -> bool:
        """Whether a typed number is this answer within its tolerance (−∞ only as −∞)."""
        if np.isinf(self.answer):
            return bool(typed == self.answer)
        return bool(np.isfinite(typed) and abs(typed - self.answer) <= self.tolerance)


def read(tape, step: str, where: str, cell: tuple[int, ...]) -> float:
    """The number at ``cell`` of ``step``'s ``where`` (one of FIELDS), as the tape holds it."""
    if where == "value":
        table = tape.value(step)
    elif where.startswith("extras."):
        table = tape.index[step].extras[where.removeprefix("extras.")]
    elif where == "grad":
        table = tape.grads[step]
    elif where == "update.after":
        table = tape.updates[step][2]
    else:
        raise ValueError(f"no field {where!r} on a tape step: one of {', '.join(FIELDS)}")
    return float(np.asarray(table, dtype=float)[tuple(cell)])


def tolerance(answer: float, relative: float = 1e-3, floor: float = 1e-3) -> float:
    """How far a hand computation from the shown (rounded) numbers may land from the answer."""
    return float(max(relative * abs(answer), floor)) if np.isfinite(answer) else 0.0
