"""Which parameters a tape's JSON file keeps: those its steps read, while they stay few.

Its own module, light to import: the HTML page asks it (its questions use only what the file
keeps) without loading the JSON format and its schema."""

from __future__ import annotations

PARAMS_LIMIT = 250_000  # parameters are written out only while they stay this small (numbers)


def used_params(tape) -> list[str]:
    """The names of the parameters the tape's steps read, in the model's order."""
    inputs = {i for s in tape.steps for i in s.inputs}
    return [n for n in tape.params if n in inputs]  # the model's order, kept by loads()


def params_kept(tape) -> bool:
    """Whether the tape's file holds the parameters its steps read (not when they are many,
    as a pretrained model's)."""
    return sum(tape.params[n].size for n in used_params(tape)) <= PARAMS_LIMIT
