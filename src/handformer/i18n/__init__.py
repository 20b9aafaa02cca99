"""Every user-facing sentence, one table per language: ``i18n/<code>.py`` holds ``TEXT``.

The languages are the modules of this package (found without importing them, so the CLI's
``--lang`` choices cost nothing at start-up) plus any table registered at run time (a test's
marked copy of English). Every table holds the same keys with the same {placeholders}; keys are
written literally where they are used, so ``grep '"attn.intro.self"'`` finds every use.

Adding a language: copy en.py to <code>.py and translate it (fonts: ``lang.font``,
``figure.fonts``; how lines break: ``lang.wrap``); nothing else changes.
"""

from __future__ import annotations

import importlib
import os
from functools import cache

from ..errors import HandformerError

FIRST = "en"  # the reference language: listed first, the HTML page's base sections
SETTINGS = ("lang.tag", "lang.font", "lang.wrap", "figure.fonts")  # settings, not sentences

_REGISTERED: dict[str, dict[str, str]] = {}


def languages() -> list[str]:
    """The language codes: English first, then the other tables, then registered ones."""
    found = _shipped()
    return [*found, *(code for code in _REGISTERED if code not in found)]


@cache
def _shipped() -> tuple[str, ...]:
    """The tables of this package, English first: its folder is read once (a page asks for a
    sentence hundreds of times). A table is a module ``<code>.py`` (listed by name: pkgutil
    and the importlib machinery it loads cost more than the walk's use of them)."""
    found = sorted(name[:-3] for folder in __path__ for name in os.listdir(folder)
                   if name.endswith(".py") and not name.startswith("_"))
    found.sort(key=lambda code: code != FIRST)
    return tuple(found)


def table(lang: str) -> dict[str, str]:
    """The sentences of ``lang`` by key; an unknown language is refused in one line."""
    if lang in _REGISTERED:
        return _REGISTERED[lang]
    if lang not in _shipped():
        raise HandformerError(f"unknown language {lang!r}: choose one of "
                              f"{', '.join(languages())}")
    return _shipped_table(lang)


def shipped(lang: str) -> bool:
    """Whether ``lang``'s sentences are this package's own table (its file ``<code>.py``), not
    a table registered at run time: what a cache named by this folder's sources may keep."""
    return lang in _shipped() and lang not in _REGISTERED


@cache  # a page asks for a table hundreds of times; import_module's look-up is the cost
def _shipped_table(lang: str) -> dict[str, str]:
    return importlib.import_module(f"{__name__}.{lang}").TEXT


def register(lang: str, texts: dict[str, str]) -> None:
    """Add (or replace) a language at run time, e.g. a test's marked copy of English."""
    _REGISTERED[lang] = texts


def unregister(lang: str) -> None:
    _REGISTERED.pop(lang, None)


def t(lang: str, key: str, **numbers) -> str:
    """The sentence ``key`` in ``lang``, its {placeholders} filled in."""
    return table(lang)[key].format(**numbers)


def placeholders(sentence: str) -> set[str]:
    """The {field} names a sentence fills in (formats such as {p:.3f} stripped)."""
    import string

    return {field for _, field, _, _ in string.Formatter().parse(sentence) if field}


def differences(a: dict[str, str], b: dict[str, str]) -> list[str]:
    """What keeps two tables from standing in for each other: a key only one of them has, or a
    key whose {placeholders} differ (a sentence would miss a number, or ask for one not given)."""
    out = [f"{key}: in one table only" for key in sorted(set(a) ^ set(b))]
    for key in sorted(set(a) & set(b)):
        if placeholders(a[key]) != placeholders(b[key]):
            out.append(f"{key}: {sorted(placeholders(a[key]))} vs {sorted(placeholders(b[key]))}")
    return out
