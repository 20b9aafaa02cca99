"""The registry of operations: each one's forward, backward and formulas, by name.

An operation works on arrays with any leading (batch) axes. ``forward(*args, **attrs)`` returns
``(out, cache)``; ``backward(g, out, args, cache, attrs)`` returns one gradient per argument
(None for arguments that are not differentiable, such as ids). Formulas are LaTeX templates in
which ``$out``, ``$x``, ... stand for the symbols a step gives them (see ``Op.latex``), with
scripts written after them merged by ``formula.compose``; ``\\dL{$x}`` is ∂L/∂$x and
``clauses`` sets formulas side by side. ``op`` registers one; ``get`` finds one or says which
name is missing (a family's ops are registered when its folder is imported).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...errors import HandformerError
from ..formula import expand, fill


class Op:
    """An operation: its forward and backward functions and its formulas (a plain class: a dataclass compiles its methods from source text at every start-up)."""

    __slots__ = ("name", "forward", "backward", "formula", "grad_formula", "symbols")

    def __init__(self, name: str, forward: Callable, backward: Callable, formula: str,
                 grad_formula: str, symbols: tuple[tuple[str, str], ...] = ()):
        self.name, self.forward, self.backward = name, forward, backward
        self.formula, self.grad_formula, self.symbols = formula, grad_formula, symbols

    def symbol_map(self, symbols: dict | None = None) -> dict:
        """Every placeholder's symbol: the generic ones, this op's, then a step's own."""
        return _GENERIC | dict(self.symbols) | (symbols or {})

    def latex(self, symbols: dict | None = None, grad: bool = False) -> str:
        """The formula with this step's symbols filled in; a symbol set to None is left out."""
        names = self.symbol_map(symbols)
        text = self.grad_formula if grad else self.formula
        for absent in [k for k, v in names.items() if v is None]:
            parts = [p for p in text.split(r",\quad ") if f"\\partial ${absent}" not in p]
            text = re.sub(rf" \+ \${absent}(\^\{{\(i\)\}})?", "", r",\quad ".join(parts))
        return fill(text, names)


_GENERIC = {"out": "Y", "x": "X", "a": "A", "b": "B"}  # for steps that name no symbols


OPS: dict[str, Op] = {}


def op(name: str, forward: Callable, formula: str, grad_formula: str, **symbols):
    """Register ``forward`` and ``backward`` (the decorated function) as one operation."""

    def register(backward):
        if name in OPS:
            raise HandformerError(f"operation {name!r} is registered twice")
        OPS[name] = Op(name, forward, backward, expand(formula), expand(grad_formula),
                       tuple(symbols.items()))
        return OPS[name]

    return register


def get(name: str) -> Op:
    """The operation called ``name``; one that no imported module registered is an error that
    names it, never an empty formula."""
    try:
        return OPS[name]
    except KeyError:
        raise HandformerError(f"unknown operation {name!r}: no module registered it "
                              f"(known: {', '.join(sorted(OPS))})") from None
