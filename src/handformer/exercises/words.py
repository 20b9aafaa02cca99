"""A question as words and numbers in one language: its sentence, its given numbers shown to
their digits, its tolerance, its hint and its answer as the key prints them. Every renderer of a
worksheet (HTML, Markdown, the page's "check yourself") reads these, so they say the same."""

from __future__ import annotations

import math
import re

import numpy as np

from .. import i18n
from ..families.registry import name_of
from .question import Given, Question


def number(x, digits: int = 5) -> str:
    """``x`` to ``digits`` significant digits, never in exponent form; −∞ as −∞; an integer
    as an integer."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return str(int(x))
    x = float(x)
    if math.isinf(x):
        return "−∞" if x < 0 else "∞"
    if x == 0:
        return "0"
    text = np.format_float_positional(x, precision=digits, unique=False, fractional=False,
                                      trim="-")
    return text.replace("-", "−")


def value_text(given: Given) -> str:
    """A given value: one number, a row of numbers in brackets, or words (quoted)."""
    value = given.value
    if isinstance(value, list):
        if value and isinstance(value[0], str):
            return " · ".join(f"“{v}”" for v in value)
        return "[" + ", ".join(number(v, given.digits) for v in value) + "]"
    return number(value, given.digits)


def ask(question: Question, lang: str) -> str:
    """The question's sentence; placed in the walk (exercises/places.py), a question that
    would name a parameter by its tape name names its panel and its row and column instead."""
    words = question.words
    matrix, vector = PLACED.get(question.ask, (None, None))
    placed = matrix if "row" in words else vector
    if "panel" in words and "col" in words and placed:
        return i18n.t(lang, placed, **words)
    return i18n.t(lang, question.ask, **words)


# A question's sentence once placed in the walk: (for a matrix's entry, for a vector's entry).
PLACED = {"ex.ask.sgd_update": ("ex.ask.sgd_update.placed", "ex.ask.sgd_update.placed.vector"),
          "ex.ask.grad_weight": ("ex.ask.grad_weight.placed", None)}


def hint(question: Question, lang: str) -> str:
    """The hint, its first term written with minus signs as the given values are."""
    words = dict(question.words)
    if isinstance(words.get("first"), str):
        words["first"] = MINUS.sub("−", words["first"])
    return i18n.t(lang, question.hint, **words)


MINUS = re.compile(r"(?<![\w.)])-(?=[\d.]|inf)")  # a number's sign, not a hyphen in a word


def decimals(question: Question) -> int:
    """How many decimals the key prints: one more than the tolerance's first digit."""
    if question.tolerance <= 0:
        return 0 if float(question.answer).is_integer() else 6
    return max(0, 1 - math.floor(math.log10(question.tolerance)))


def answer_text(question: Question) -> str:
    answer = question.answer
    if math.isinf(answer):
        return "−∞"
    return f"{answer:.{decimals(question)}f}".replace("-", "−")


def tolerance_text(question: Question, lang: str) -> str:
    if question.tolerance <= 0:
        return i18n.t(lang, "ex.exact")
    return i18n.t(lang, "ex.tolerance", tol=f"{question.tolerance:.2g}")


def run_text(meta: dict) -> str:
    """The run in one line: family, preset, width and the sentence pair (or prompt)."""
    config = meta.get("config") or {}
    parts = [name_of(meta), str(config.get("preset", ""))]
    if config.get("d_model"):  # the width it runs at, whatever the preset it started from
        parts.append(f"d_model = {config['d_model']}")
    for key in ("src", "prompt", "tgt"):
        tokens = (meta.get(key) or {}).get("tokens")
        if tokens:
            parts.append(" ".join(tokens))
    return " · ".join(p for p in parts if p)


def where(question: Question, lang: str) -> str:
    """The question's kind and where its number is: the walk's panel and the row's and
    column's labels (the tape's step and cell where no panel draws it), in one line."""
    words = question.words
    if "panel" in words and "row" in words:
        return i18n.t(lang, "ex.kind.panel.cell", kind=question.kind, panel=words["panel"],
                      row=words["row"], col=words["col"])
    if "panel" in words:
        return i18n.t(lang, "ex.kind.panel", kind=question.kind, panel=words["panel"])
    return i18n.t(lang, "ex.kind", kind=question.kind, step=question.step,
                  cell=list(question.cell))
