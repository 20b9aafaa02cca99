"""A request body to JSON, refusing what Python's parser would take too far: nesting deeper than
a request ever needs (checked on the bytes before parsing), whole numbers of more digits than
any field takes, NaN and the infinities (not JSON), and lone surrogates (not text).

Every refusal is a RequestError with status 400 naming what was wrong.
"""

from __future__ import annotations

import json
import math
import re

from ..textsafe import SURROGATE
from .limits import RequestError

MAX_DEPTH = 16  # the deepest request (compare's a.config) is 3 levels
MAX_DIGITS = 30  # of a number as written; a float64 needs at most 17 significant digits
_STRUCTURE = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')  # strings skipped whole


def parse(raw: bytes):
    """The parsed body, or a 400 RequestError."""
    check_depth(raw)
    try:
        data = json.loads(raw, parse_int=_whole, parse_float=_real, parse_constant=_constant)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise RequestError(f"malformed JSON: {err}", None, 400) from None
    _refuse_surrogates(data)
    return data


def check_depth(raw: bytes) -> None:
    """Refuse nesting deeper than MAX_DEPTH, counting brackets outside strings."""
    depth = 0
    for match in _STRUCTURE.finditer(raw):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > MAX_DEPTH:
                raise RequestError(f"the JSON body is nested more than {MAX_DEPTH} levels "
                                   "deep", None, 400)
        elif token in (b"]", b"}"):
            depth -= 1


def _whole(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise RequestError(f"a number in the body has {len(text):,} digits, more than the "
                           f"limit of {MAX_DIGITS}", None, 400)
    return int(text)


def _real(text: str) -> float:
    if len(text) > MAX_DIGITS + 8:
        raise RequestError(f"a number in the body is {len(text):,} characters long, more "
                           f"than the limit of {MAX_DIGITS + 8}", None, 400)
    value = float(text)
    if not math.isfinite(value):
        raise RequestError(f"the number {text} is too large for a float64", None, 400)
    return value


def _constant(name: str):
    raise RequestError(f"{name} is not a JSON number; give a finite number", None, 400)


def _refuse_surrogates(value) -> None:
    """Walk the (at most MAX_DEPTH deep) data for a string holding a lone surrogate."""
    if isinstance(value, str) and SURROGATE.search(value):
        raise RequestError("the body holds a lone surrogate escape (such as \\ud800), which "
                           "is not a character", None, 400)
    children = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for key, child in children:
        _refuse_surrogates(key)
        _refuse_surrogates(child)
