r"""Symbols and formulas composed by small helpers, so that no formula is ever invalid LaTeX.

A symbol is a base with at most one subscript and one superscript: ``W^Q``, ``X_{sum}``,
``K^{(1)\top}``. Gluing scripts on with strings gives ``W^Q^{(i)}`` (a double superscript that
LaTeX and latex2mathml refuse); the helpers here merge them instead: ``head("W^Q", "i")`` is
``W^{Q(i)}``, ``sub("X_{sum}", "j")`` is ``X_{sum,j}``, ``transpose(head("K", 1))`` is
``K^{(1)\top}``. Every helper takes and returns plain TeX text, so symbols stay strings in the
tape and its JSON.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..records import Frozen

# One script: a {…} group (one level of nesting), a command such as \top, or one character.
_SCRIPT = r"\{(?:[^{}]|\{[^{}]*\})*\}|\\[A-Za-z]+|[^\s{}\\^_']"
_SYMBOL = re.compile(rf"""
    (?P<base>\\[A-Za-z]+(?:\{{[^{{}}]*\}})?|[A-Za-z]+)
    (?P<scripts>(?:_(?:{_SCRIPT})|\^(?:{_SCRIPT})|')*)
    """, re.X)
_ONE_SCRIPT = re.compile(rf"([_^])({_SCRIPT})|(')")


class Symbol(Frozen):
    """A base and its scripts in written order: ("_", "{sum}"), ("^", r"\\top"), ("^", "'")."""

    FIELDS = ("base", "scripts")

    def __init__(self, base: str, scripts: tuple[tuple[str, str], ...] = ()):
        self._set(base=base, scripts=scripts)

    def tex(self) -> str:
        """As written while that is valid TeX, else merged into base_{…}^{…}."""
        if self._valid_as_written():
            return self.base + "".join(p if p == "'" else mark + _group(p)
                                       for mark, p in self.scripts)
        subs = [p for mark, p in self.scripts if mark == "_"]
        sups = [p for mark, p in self.scripts if mark == "^"]
        sups = [r"\prime"] * sups.count("'") + [p for p in sups if p != "'"]  # S^{\prime(1)}
        return (self.base + ("_" + _merged(subs, ",") if subs else "")
                + ("^" + _merged(sups, "") if sups else ""))

    def _valid_as_written(self) -> bool:
        # One subscript, one superscript, and primes only before the superscript (S'^{(1)}).
        kinds = ["'" if p == "'" else mark for mark, p in self.scripts]
        sup_at = kinds.index("^") if "^" in kinds else len(kinds)
        return kinds.count("_") <= 1 and kinds.count("^") <= 1 and "'" not in kinds[sup_at:]

    def plus(self, mark: str, piece: str) -> Symbol:
        return self.replace(scripts=(*self.scripts, (mark, piece)))


@lru_cache(maxsize=1024)  # the narration asks for the same few symbols hundreds of times
def parse(symbol: str) -> Symbol:
    """The symbol's base and scripts (frozen, so one parse is shared); a text that is not one
    symbol is one opaque base."""
    m = _SYMBOL.fullmatch(symbol.strip())
    if m is None:
        return Symbol(symbol)
    return Symbol(m["base"], _scripts(m["scripts"]))


def _scripts(text: str) -> tuple[tuple[str, str], ...]:
    return tuple(("^", "'") if tick else (mark, piece)
                 for mark, piece, tick in _ONE_SCRIPT.findall(text))


def _merged(pieces: list[str], sep: str) -> str:
    """Several script pieces as one group; a lone piece as written."""
    if len(pieces) == 1:
        return _group(pieces[0])
    text = ""
    for piece in (_unbrace(p) for p in pieces):
        glue = sep or (" " if re.search(r"\\[A-Za-z]+$", text) and piece[:1].isalpha() else "")
        text += (glue if text else "") + piece
    return "{" + text + "}"


def _group(piece: str) -> str:
    single = len(piece) == 1 or re.fullmatch(r"\\[A-Za-z]+|\{.*\}", piece)
    return piece if single else "{" + piece + "}"


def _unbrace(piece: str) -> str:
    return piece[1:-1] if piece.startswith("{") and piece.endswith("}") else piece


@lru_cache(maxsize=1024)  # every forward pass asks for the same symbols again
def sub(symbol: str, index) -> str:
    """symbol with a subscript; one already there gets the index after a comma: X_{sum,j}."""
    return parse(symbol).plus("_", str(index)).tex()


@lru_cache(maxsize=1024)
def sup(symbol: str, mark) -> str:
    """symbol with a superscript; one already there is extended: W^Q → W^{Q(i)}."""
    return parse(symbol).plus("^", str(mark)).tex()


def head(symbol: str, index) -> str:
    """The head's copy of a symbol: Q → Q^{(2)}, W^Q → W^{Q(i)}."""
    return sup(symbol, "{(" + str(index) + ")}")


def transpose(symbol: str) -> str:
    r"""symbol^\top, merged with a superscript already there: K^{(1)} → K^{(1)\top}."""
    return sup(symbol, r"\top")


def prime(symbol: str) -> str:
    r"""symbol', merged with a superscript already there: S^{(1)} → S^{\prime(1)}."""
    return parse(symbol).plus("^", "'").tex()


_GRADIENT = re.compile(r"\\dL\{((?:[^{}]|\{[^{}]*\})*)\}")


def expand(template: str) -> str:
    r"""A template with its shorthand written out: \dL{$x} is ∂L/∂$x as a fraction."""
    return _GRADIENT.sub(lambda m: r"\frac{\partial L}{\partial " + m[1] + "}", template)


def clauses(*parts: str) -> str:
    r"""Formulas shown side by side, separated as in print: a,\quad b."""
    return r",\quad ".join(parts)


def compose(symbol: str, scripts: str) -> str:
    r"""symbol followed by scripts a template wrote after it: _{ij}, ^{(i)}, ^\top."""
    s = parse(symbol)
    for mark, piece in _scripts(scripts):
        s = s.plus(mark, piece)
    return s.tex()


_PLACEHOLDER = re.compile(rf"\$([a-z]+)((?:[_^](?:{_SCRIPT}))*)")


def fill(template: str, symbols: dict[str, str]) -> str:
    """The template with each ``$name`` (and the scripts written after it) composed from its
    symbol; a name without a symbol stays as written."""

    def one(m: re.Match) -> str:
        name, scripts = m.groups()
        return m[0] if symbols.get(name) is None else compose(symbols[name], scripts)

    return _PLACEHOLDER.sub(one, template)
