"""One exercise: the numbers it gives, the one number it asks for, and where on the tape that
number is (its step, the field of the step, its cell), so the answer is read, never recomputed.

    >>> from handformer import pipeline
    >>> from handformer.exercises.question import read
    >>> tape = pipeline.run({}).tape
    >>> read(tape, "src.ids", "value", (2,))
    7.0
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# Where a number lives on the tape: a step's value, a statistic the step kept beside its value
# (layer norm's row mean and σ), a gradient, or a parameter after the update.
FIELDS = ("value", "extras.mean", "extras.std", "grad", "update.after")


@dataclass(frozen=True)
class Given:
    """One number (or a row of numbers) handed to the learner: what it is (an i18n key), its
    symbol, its value in full (the worksheet shows it to ``digits`` significant digits)."""

    label: str
    symbol: str
    value: float | list
    digits: int = 5


@dataclass(frozen=True)
class Question:
    """The question of ``kind`` about ``step`` at ``cell``; ``ask`` is the i18n key of its
    sentence, filled with ``words``; ``hint`` the key of its first-term hint."""

    kind: str
    step: str
    field: str
    cell: tuple[int, ...]
    given: tuple[Given, ...]
    answer: float
    tolerance: float
    formula: str
    ask: str
    hint: str
    words: dict = field(default_factory=dict)
    part: str = "forward"

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
