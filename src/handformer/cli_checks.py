"""Option types that refuse what no run can use: NaN, infinities, sizes over their limits.

click's FloatRange lets NaN through (every comparison with NaN is false) and an int option has
no upper bound, so ``--lr nan`` trained to NaN and ``--width 1000000000`` drew a rule a billion
characters long. These types refuse such values while the options are read, with one line
(a HandformerError, which the command group turns into exit status 2; click's own range
error is three lines). ``Finite`` and ``Whole`` are click ranges, so `--help` states their
bounds (``[x>=0]``, ``[0<=x<1]``).
"""

from __future__ import annotations

import math

import click

from .errors import HandformerError
from .limits import check, limit


class Finite(click.FloatRange):
    """A float that is a number, within [lo, hi] (``hi_open``: below hi; ``lo_open``: above
    lo)."""

    name = "float"

    def __init__(self, lo: float | None = None, hi: float | None = None,
                 lo_open: bool = False, hi_open: bool = False, check: bool = True):
        super().__init__(lo, hi, min_open=lo_open, max_open=hi_open)
        self.lo, self.hi, self.check = lo, hi, check

    def convert(self, value, param, ctx):
        flag, number = _parsed(value, param, float, "a number")
        if not self.check:  # a Config field: its own check names the numbers that clash
            return number
        if not math.isfinite(number):
            raise HandformerError(f"{flag} must be a finite number, got {value!r}")
        if not _within(number, self):
            raise HandformerError(f"{flag} must be {_bound_words(number, self)}, got {value!r}")
        return number


class Whole(click.IntRange):
    """A whole number within [lo, hi] (None: no bound on that side). ``check=False``: the
    range is only stated in --help, and the Config's own check refuses (naming the field and
    the numbers that clash)."""

    name = "integer"

    def __init__(self, lo: int | None = None, hi: int | None = None, check: bool = True):
        super().__init__(lo, hi)
        self.check = check

    def convert(self, value, param, ctx):
        flag, number = _parsed(value, param, int, "a whole number")
        if self.check and not _within(number, self):
            raise HandformerError(f"{flag} must be {_bound_words(number, self)}, got {number}")
        return number


class FileName(click.ParamType):
    """The name of a file to write: any text but the empty one (``--save ''`` wrote the
    default file, and ``-o ''`` the terminal, without a word)."""

    name = "file"

    def convert(self, value, param, ctx):
        if value == "":
            flag = param.opts[-1] if param else "the file name"
            raise HandformerError(f"{flag} needs a file name, got an empty one")
        return value


SEED = Whole(0, 2**32 - 1)  # every seed of every command (the web app's quiz takes the same)


def _within(number, bounds: click.types._NumberRangeBase) -> bool:
    low, high = bounds.min, bounds.max
    above = low is None or (number > low if bounds.min_open else number >= low)
    below = high is None or (number < high if bounds.max_open else number <= high)
    return above and below


def _bound_words(number, bounds: click.types._NumberRangeBase) -> str:
    """The bound ``number`` crosses: "at least 1", "less than 1", "at most 4,294,967,295"."""
    low, high = bounds.min, bounds.max
    if low is not None and (number <= low if bounds.min_open else number < low):
        return f"{'more than' if bounds.min_open else 'at least'} {_written(low)}"
    return f"{'less than' if bounds.max_open else 'at most'} {_written(high)}"


def _written(bound) -> str:
    return f"{bound:,}" if isinstance(bound, int) else f"{bound:g}"


class Bounded(click.IntRange):
    """A whole number from 1 up to a limit of limits.py (which HANDFORMER_LIMITS can raise;
    --help states the limit in force when the command was loaded)."""

    name = "integer"

    def __init__(self, limit_name: str):
        super().__init__(1, limit(limit_name))
        self.limit_name = limit_name

    def convert(self, value, param, ctx):
        flag, number = _parsed(value, param, int, "a whole number")
        if number < 1:
            raise HandformerError(f"{flag} must be at least 1, got {number}")
        check(self.limit_name, number, flag)
        return number


def _parsed(value, param, kind, what: str):
    """(the option's flag, the value as ``kind``), or one line saying what it needs (a value
    of thousands of digits is refused by its length, never parsed)."""
    flag = param.opts[0] if param else "the value"
    if isinstance(value, str) and len(value) > 40:
        raise HandformerError(f"{flag} needs {what}, got {len(value):,} characters")
    try:
        return flag, kind(value)
    except (TypeError, ValueError):
        raise HandformerError(f"{flag} needs {what}, got {value!r}") from None


def bpe_merges_option(func):
    """--bpe-merges N, declared by every command that takes --tokenizer bpe (bpe.py)."""
    from .bpe import DEFAULT_MERGES, MAX_MERGES

    return click.option("--bpe-merges", type=Whole(1, MAX_MERGES), default=None, metavar="N",
                        help=f"with --tokenizer bpe: how many byte-level BPE merges to learn "
                             f"from the corpus, 1 to {MAX_MERGES} (fewer when no pair is "
                             f"left)  [default: {DEFAULT_MERGES}]")(func)
