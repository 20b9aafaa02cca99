"""∂L/∂name's formula as a gradient panel shows it: one clause for each step that read the
value and sent a gradient back, then the gradients of the step's own parameters (W, b, γ, β)."""

from __future__ import annotations

import re

from ..engine.formula import clauses, fill
from ..engine.ops import get
from . import names


def consumers(tape, name: str) -> list:
    """The steps that read ``name`` and sent a gradient back to it (views left out)."""
    return [s for s in tape.steps if not s.view and name in s.inputs and s.name in tape.grads]


def gradient_formula(tape, name: str, uses: list) -> str:
    """The formula of what the panel shows: ∂L/∂name as each step that read it makes it (one
    clause per use), then the gradients of this step's own parameters."""
    step = tape.index[name]
    parts = [_clause(use, use.inputs.index(name), names.symbol(name, step.op)) for use in uses]
    parts += [_clause(step, i) for i, x in enumerate(step.inputs)
              if x in tape.grads and x not in tape.index]  # W, b, γ, β: shown in this panel
    return clauses(*dict.fromkeys(p for p in parts if p))


_GRADIENT = re.compile(r"\\frac\{\\partial L\}\{\\partial \$[a-z]+\}")
_LEFT = re.compile(r"\\frac\{\\partial L\}\{\\partial \$([a-z]+)")


def _clause(step, i: int, symbol: str | None = None) -> str:
    """The part of ``step``'s gradient formula for its i-th input, that input called
    ``symbol`` (the panel's own name for it). An op with one clause for all its inputs: an
    addition's chain ∂L/∂a = ∂L/∂b = ∂L/∂out gives ∂L/∂symbol = ∂L/∂out; another op's one
    clause is its first input's (layer norm: x, with γ and β beside it)."""
    op = get(step.op)
    raw = op.grad_formula.split(r",\quad ")
    symbols = op.symbol_map(step.symbols)
    if len(raw) < len(step.inputs):
        chain = raw[0].split(" = ")
        if all(_GRADIENT.fullmatch(g) for g in chain):  # one gradient copied to every input
            raw = [f"{chain[k]} = {chain[-1]}" for k in range(len(step.inputs))]
        elif i:
            return step.grad_formula
    left = _LEFT.match(raw[i])
    if left is None:
        return step.grad_formula
    if symbol:
        symbols[left[1]] = symbol
    return fill(raw[i], symbols)
