r"""Formulas converted for the renderers, checked: MathML for pages, mathtext for figures.

A formula that does not convert is an error here (``FormulaError``); a renderer that still
draws the page shows the TeX and warns once per formula on stderr, naming the step. The check
is also what the tests run over every preset, so no fallback reaches a page unnoticed.
"""

from __future__ import annotations

import logging
import re
import sys
from functools import lru_cache

from ...errors import (
    FormulaError,  # noqa: F401  (raised here)
    )
from . import mathml_cache

# Patterns are compiled where they are first used (re keeps them): importing this module is
# part of every page's start, which needs none of them while its formulas are in the cache.
_COMMAND_LEFT = r"\\[A-Za-z]+"  # a command the converter left as text: <mi>\arg</mi>
_WARNED: set[str] = set()




def to_mathml(latex: str, display: bool = True) -> str:
    """The formula as MathML, rebuilt from an allow-list (``sanitize``); FormulaError if it is
    not valid or a command stays unconverted. A formula converted before, by this same code,
    comes from the cache of earlier runs (``mathml_cache``)."""
    key = ("block " if display else "inline ") + latex
    known = mathml_cache.lookup(key)
    if known is None:
        known = _convert(latex, display)
        mathml_cache.keep(key, known)
    return known


def _convert(latex: str, display: bool) -> str:
    from latex2mathml import exceptions
    from latex2mathml.converter import convert_to_element

    from . import sanitize  # with xml.etree: only for a formula the cache does not hold

    if not braces_balanced(latex):
        raise FormulaError("unbalanced braces")
    refused = tuple(v for v in vars(exceptions).values()
                    if isinstance(v, type) and issubclass(v, Exception))
    try:
        out = sanitize.mathml(convert_to_element(latex, display="block" if display else "inline"))
    except refused as err:
        raise FormulaError(f"{type(err).__name__} {err}".strip()) from None
    left = re.search(_COMMAND_LEFT, out)
    if left:
        raise FormulaError(f"{left[0]} left unconverted")
    return out


def braces_balanced(latex: str) -> bool:
    r"""Every { closed by a } after it (\{, \} and \\ do not count)."""
    depth = 0
    for ch in re.sub(r"\\[{}\\]", "", latex):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def warn(where: str, latex: str, err: Exception) -> None:
    """One line on stderr the first time a formula fails: where (the step), why, and the TeX."""
    if latex in _WARNED:
        return
    _WARNED.add(latex)
    print(f"handformer: warning: {where}: a formula does not convert ({err}); "
          f"shown as TeX: {latex}", file=sys.stderr)


@lru_cache(maxsize=1)
def _mathtext_rules() -> list:
    """mathtext (matplotlib) reads a subset of LaTeX: these rewrite what it lacks into what it
    has (compiled for the first figure: a page never needs them)."""
    return [
        (re.compile(r"\\begin\{cases\}(.*?)\\end\{cases\}", re.S), lambda m: _cases(m[1])),
        (re.compile(r"'(_(?:\{[^{}]*\}|\w))"), lambda m: m[1] + "'"),  # S'_{ij} → S_{ij}'
        (re.compile(r"\\[dt]frac\b"), lambda m: r"\frac"),
        (re.compile(r"\\xrightarrow\{([^{}]*(?:\{[^{}]*\}[^{}]*)*)\}"),
         lambda m: r"\overset{" + m[1] + r"}{\longrightarrow}"),
        (re.compile(r"\\(?:textstyle|displaystyle)\s*"), lambda m: ""),
        (re.compile(r"\\[lr]vert\b"), lambda m: "|"),
        (re.compile(r"\\operatorname\*"), lambda m: r"\operatorname"),
        (re.compile(r"\\quad\b"), lambda m: r"\ \ "),
        (re.compile(r"\\!"), lambda m: ""),
        (re.compile(r"\\,"), lambda m: r"\ "),
    ]


def _cases(body: str) -> str:
    rows = [r.replace("&", r"\ ").strip() for r in body.split(r"\\") if r.strip()]
    return r"\left\{\ " + r";\ \ ".join(rows) + r"\right."


def mathtext(latex: str) -> str:
    """The formula as ``$…$`` that matplotlib's mathtext parses; FormulaError if it cannot."""
    text = latex
    for pattern, repl in _mathtext_rules():
        text = pattern.sub(repl, text)
    # whether a font has each glyph is the drawing's concern (plotting.math_font draws a formula
    # with CJK text in a CJK font); this parse only asks whether mathtext reads the formula
    quiet = logging.getLogger("matplotlib.mathtext")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        _mathtext_parser().parse(f"${text}$")
    except ValueError as err:  # mathtext reports every parse failure as a ValueError
        raise FormulaError(str(err).strip().splitlines()[-1]) from None
    finally:
        quiet.setLevel(level)
    return f"${text}$"


@lru_cache(maxsize=1)
def _mathtext_parser():
    from ..plotting import writable_config_dir

    writable_config_dir()  # before matplotlib's first import
    from matplotlib.mathtext import MathTextParser

    return MathTextParser("path")  # one, so its cache of parsed formulas is shared
