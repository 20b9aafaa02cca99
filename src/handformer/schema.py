"""Checks for values read from files: each names the field it refuses and says what it wanted.

A file that parses (JSON, safetensors metadata) can still hold a string where a size belongs,
a negative ε, a list nested a thousand deep. These helpers turn each such value into one clear
error at load time, instead of a TypeError (or a huge allocation) later.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing

from .errors import ConfigError, SchemaError  # noqa: F401  (raised here)


def integer(value, name: str, lo: int | None = None, hi: int | None = None) -> int:
    """An int (not a bool, not 6.0) within [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SchemaError(f"{name} must be a whole number, got {_show(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise SchemaError(f"{name} must be in [{lo}, {hi if hi is not None else '∞'}], "
                          f"got {value}")
    return value


def number(value, name: str, lo: float | None = None, hi: float | None = None) -> float:
    """A finite int or float within [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SchemaError(f"{name} must be a number, got {_show(value)}")
    if not math.isfinite(value):
        raise SchemaError(f"{name} must be a finite number, got {value}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise SchemaError(f"{name} must be in [{lo}, {hi if hi is not None else '∞'}], "
                          f"got {value}")
    return value


def string(value, name: str) -> str:
    if not isinstance(value, str):
        raise SchemaError(f"{name} must be a string, got {_show(value)}")
    return value


def boolean(value, name: str) -> bool:
    if not isinstance(value, bool):
        raise SchemaError(f"{name} must be true or false, got {_show(value)}")
    return value


def mapping(value, name: str) -> dict:
    if not isinstance(value, dict):
        raise SchemaError(f"{name} must be an object {{...}}, got {_show(value)}")
    return value


def strings(value, name: str, most: int | None = None) -> list[str]:
    """A list of strings (a vocabulary, a token list), at most ``most`` long."""
    if not isinstance(value, list):
        raise SchemaError(f"{name} must be a list of strings, got {_show(value)}")
    if most is not None and len(value) > most:
        raise SchemaError(f"{name} has {len(value):,} entries, more than {most:,}")
    for i, item in enumerate(value):
        string(item, f"{name}[{i}]")
    return value


def typed(value, hint, name: str):
    """``value`` checked against a dataclass field's type (int, float, str, bool, X | None)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        if value is None:
            return None
        hint = next(a for a in typing.get_args(hint) if a is not type(None))
    check = {int: integer, float: number, str: string, bool: boolean, dict: mapping}.get(hint)
    return check(value, name) if check else value


def _show(value) -> str:
    """A short, escaped view of a bad value (its type if it is long)."""
    text = repr(value)
    return text if len(text) <= 40 else f"a {type(value).__name__}"


def config_fields(cls, data) -> dict:
    """A config's fields read from JSON (a tape's "config"), each checked against the type of
    the dataclass ``cls``'s field of that name; a name ``cls`` does not have is refused."""
    hints = typing.get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(mapping(data, "config")) - known)
    if unknown:
        raise ConfigError(f"unknown config field(s): {', '.join(unknown)}")
    return {k: typed(v, hints[k], f"config field {k!r}") for k, v in data.items()}
