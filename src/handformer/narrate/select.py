"""`--steps 7-9`: keep the sections of some tutorial steps (numbers, ranges, comma lists);
`--panels 68-75` ("panels:68-75" here): keep panels by the number each one carries."""

from __future__ import annotations

import re

from ..errors import HandformerError
from .document import Section

_NUMBER = re.compile(r"^(\d+)([a-z]?)$")
PANELS = "panels:"  # a selection by panel number, as --panels gives it


def _key(number: str) -> tuple[int, str]:
    match = _NUMBER.match(number)
    return (int(match.group(1)), match.group(2)) if match else (10**9, number)


def select(sections: list[Section], spec: str | None) -> list[Section]:
    """The sections whose step number is in ``spec``; "12" also keeps "12b", "7-9" keeps "7b"."""
    if spec is None or not str(spec).strip():
        return sections
    if str(spec).startswith(PANELS):
        return _panels(sections, str(spec)[len(PANELS):])
    valid = sorted({s.number for s in sections if s.number}, key=_key)
    wanted = [_parse_part(part.strip(), valid) for part in str(spec).split(",")]
    return [s for s in sections if any(test(s.number) for test in wanted)]


def _panels(sections: list[Section], spec: str) -> list[Section]:
    """The sections whose panel number is in ``spec`` ("68-75", "12,14", "3")."""
    last = max((s.panel for s in sections), default=0)
    wanted: set[int] = set()
    for part in (p.strip() for p in spec.split(",")):
        bounds = [b.strip() for b in part.split("-")]
        if len(bounds) > 2 or not all(b.isdigit() for b in bounds):
            raise _bad_panel(part, last)
        lo, hi = int(bounds[0]), int(bounds[-1])
        if lo > hi or lo < 1 or hi > last:
            raise _bad_panel(part, last, "the range runs backwards" if lo > hi else "")
        wanted |= set(range(lo, hi + 1))
    return [s for s in sections if s.panel in wanted]


def _bad_panel(part: str, last: int, why: str = "") -> HandformerError:
    reason = f" ({why})" if why else ""
    return HandformerError(f"--panels {part!r} is not a panel of this walkthrough{reason}; its "
                           f"panels are numbered 1 to {last} (e.g. --panels 12-20, --panels 3,5)")


def _parse_part(part: str, valid: list[str]):
    bounds = [b.strip() for b in part.split("-")] if "-" in part else [part]
    if len(bounds) > 2 or not all(_NUMBER.match(b) for b in bounds):
        raise _bad(part, valid)
    if len(bounds) == 1:
        (num, letter) = _key(bounds[0])
        if not any(_matches(v, num, letter) for v in valid):
            raise _bad(part, valid)
        return lambda n: _matches(n, num, letter)
    lo, hi = _key(bounds[0]), _key(bounds[1])
    if lo > hi:
        raise _bad(part, valid, "the range runs backwards")
    if not any(lo[0] <= _key(v)[0] <= hi[0] for v in valid):
        raise _bad(part, valid)
    return lambda n: lo <= _key(n) <= (hi[0], hi[1] or "z")


def _matches(number: str, num: int, letter: str) -> bool:
    key = _key(number)
    return key[0] == num and (not letter or key[1] == letter)


def _bad(part: str, valid: list[str], why: str = "") -> HandformerError:
    reason = f" ({why})" if why else ""
    return HandformerError(
        f"--steps {part!r} is not a step of this walkthrough{reason}; the steps are "
        f"{', '.join(valid)} (e.g. --steps 7-9, --steps 12, --steps 4,5)"
    )
