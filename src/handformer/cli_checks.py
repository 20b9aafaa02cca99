"""Option types that refuse what no run can use: NaN, infinities, sizes over their limits.

click's FloatRange lets NaN through (every comparison with NaN is false) and an int option has
no upper bound, so ``--lr nan`` trained to NaN and ``--width 1000000000`` drew a rule a billion
characters long. These types refuse such values while the options are read, with one line
(a HandformerError, which the command group turns into exit status 2).
"""

from __future__ import annotations

import math

import click

from .errors import HandformerError
from .limits import check


class Finite(click.ParamType):
    """A float that is a number, within [lo, hi]."""

    name = "float"

    def __init__(self, lo: float | None = None, hi: float | None = None):
        self.lo, self.hi = lo, hi

    def convert(self, value, param, ctx):
        flag, number = _parsed(value, param, float, "a number")
        if not math.isfinite(number):
            raise HandformerError(f"{flag} must be a finite number, got {value!r}")
        if self.lo is not None and number < self.lo:
            raise HandformerError(f"{flag} must be at least {self.lo:g}, got {value!r}")
        if self.hi is not None and number > self.hi:
            raise HandformerError(f"{flag} must be at most {self.hi:g}, got {value!r}")
        return number


class Bounded(click.ParamType):
    """A whole number from 1 up to a limit of limits.py (which HANDFORMER_LIMITS can raise)."""

    name = "integer"

    def __init__(self, limit_name: str):
        self.limit_name = limit_name

    def convert(self, value, param, ctx):
        flag, number = _parsed(value, param, int, "a whole number")
        if number < 1:
            raise HandformerError(f"{flag} must be at least 1, got {number}")
        check(self.limit_name, number, flag)
        return number


def _parsed(value, param, kind, what: str):
    """(the option's flag, the value as ``kind``), or one line saying what it needs."""
    flag = param.opts[0] if param else "the value"
    try:
        return flag, kind(value)
    except (TypeError, ValueError):
        raise HandformerError(f"{flag} needs {what}, got {value!r}") from None
