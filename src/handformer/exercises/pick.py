"""Finding a kind's steps on a tape by what they compute (their op), and choosing one of them
and one cell with the sheet's random generator, so a seed gives a sheet and another seed
another."""

from __future__ import annotations

import numpy as np

from ..engine.tape import Step


def steps(tape, op: str, name_end: str = "", inputs_op: tuple[str, ...] = ()) -> list[Step]:
    """The full steps (not one head's slice) computed by ``op``, whose name ends with
    ``name_end``, and, with ``inputs_op``, whose first input is made by one of those ops."""
    found = []
    for step in tape.steps:
        if step.op != op or step.view or not step.name.endswith(name_end):
            continue
        if inputs_op and made_by(tape, step.inputs[0]) not in inputs_op:
            continue
        found.append(step)
    return found


def made_by(tape, name: str) -> str:
    """The op of the step called ``name`` ("param" for a parameter)."""
    step = tape.index.get(name)
    return step.op if step is not None else "param"


def one(rng: np.random.Generator, items: list):
    """One of ``items`` (None when there are none)."""
    return items[int(rng.integers(len(items)))] if items else None


def cell(rng: np.random.Generator, shape: tuple[int, ...], where=None) -> tuple[int, ...]:
    """A cell of ``shape``; with ``where`` (a boolean array of that shape), one where it holds,
    when any does."""
    if where is not None and np.any(where):
        cells = np.argwhere(where)
        return tuple(int(i) for i in cells[int(rng.integers(len(cells)))])
    return tuple(int(rng.integers(n)) for n in shape)


def coin(rng: np.random.Generator) -> bool:
    return bool(rng.integers(2))


def plain(values) -> float | list:
    """A value as JSON holds it: floats, lists of floats (−∞ kept as a float here)."""
    array = np.asarray(values, dtype=float)
    return float(array) if array.ndim == 0 else array.tolist()
