"""∂L/∂name's formula as a gradient panel shows it: one clause for each step that read the
value and sent a gradient back, then the gradients of the step's own parameters (W, b, γ, β).

A step that only passes a value on (a layer's output, the heads joined side by side) has no
panel of its own: the product behind it is told in the panel of the value it passes on, so a
reader is looked for through it (``readers``): ∂L/∂LN(R) = ∂L/∂logits·W_outᵀ, not "∂L/∂Y⁽¹⁾
passed back unchanged"."""

from __future__ import annotations

import re
from typing import NamedTuple

from ..engine.formula import clauses, fill
from ..engine.ops import get
from . import names


def consumers(tape, name: str) -> list:
    """The steps that read ``name`` and sent a gradient back to it (views left out)."""
    return [s for s in tape.steps if not s.view and name in s.inputs and s.name in tape.grads]


# Steps that hand a value on as it is (an index mapped at most): told through, never alone.
PASS_THROUGH = ("identity", "merge_heads")


class Reader(NamedTuple):
    """A step that read the value, through ``via`` (pass-through steps, nearest first); ``k``:
    which of its inputs the value is (or the pass-through's copy of it)."""

    use: object
    k: int
    via: tuple = ()


def readers(tape, name: str) -> list[Reader]:
    """The steps that read ``name`` and sent a gradient back, a pass-through's readers in its
    place (the layer's output read by the next layer, the joined heads by W^O)."""
    found = []
    for step in consumers(tape, name):
        if step.op in PASS_THROUGH:
            found += [Reader(r.use, r.k, (step, *r.via)) for r in readers(tape, step.name)]
        else:
            found.append(Reader(step, step.inputs.index(name)))
    return found


def carried(tape, via: tuple, at: tuple) -> tuple:
    """Entry ``at`` of the value as the reader at the end of ``via`` sees it: head h's column j
    is column h·d_v + j once the heads are joined."""
    for step in via:
        if step.op == "merge_heads":
            h, i, j = at
            at = (i, h * tape.index[step.inputs[0]].shape[-1] + j)
    return at


def gradient_formula(tape, name: str, uses: list) -> str:
    """The formula of what the panel shows: ∂L/∂name as each step that read it makes it (one
    term per use, the terms of one gradient added up; through a pass-through step, the
    reader's clause under its own name, then the hand-over), then the gradients of this step's
    own parameters."""
    step = tape.index[name]
    own = names.symbol(name, step.op)
    found = [u if isinstance(u, Reader) else Reader(u, u.inputs.index(name)) for u in uses]
    parts = [p for r in found for p in _handed_over(r, own)]
    parts += [_clause(r.use, r.k, None if r.via else own) for r in found]
    parts = _chained(_summed([p for p in dict.fromkeys(parts) if p]), own)
    parts += [_clause(step, i, out=own if step.op == "linear" else None)
              for i, x in enumerate(step.inputs)
              if x in tape.grads and x not in tape.index]  # W, b, γ, β: shown in this panel
    return clauses(*dict.fromkeys(p for p in parts if p))


def _handed_over(r: Reader, own: str) -> list[str]:
    """How the gradient a reader sends back reaches the panel's value through ``r.via``: the
    heads' columns cut out of ∂L/∂Z, or the layer's output as the next step calls it (M, Y)."""
    out = []
    for n, step in reversed(list(enumerate(r.via))):
        if step.op == "merge_heads":
            out.append(_clause(step, 0, own if n == 0 else None))
        elif n == 0:
            called = _input_symbol(r.use, r.k)
            if called and called != own:
                out.append(f"{_gradient(own)} = {_gradient(called)}")
    return out


def _input_symbol(step, k: int) -> str | None:
    """What ``step``'s formula calls its k-th input (M for cross-attention's K and V)."""
    raw = get(step.op).grad_formula.split(r",\quad ")
    left = _LEFT.match(raw[k] if k < len(raw) else raw[0])
    return get(step.op).symbol_map(step.symbols).get(left[1]) if left else None


def _gradient(symbol: str) -> str:
    return rf"\frac{{\partial L}}{{\partial {symbol}}}"


def _chained(parts: list[str], own: str) -> list[str]:
    """The panel's own gradient first; ∂L/∂LN(R) = ∂L/∂M and ∂L/∂M = … written as one chain."""
    first = [p for p in parts if p.startswith(_gradient(own) + " = ")]
    parts = first + [p for p in parts if p not in first]
    if len(first) == 1 and len(first[0].split(" = ")) == 2:
        called = first[0].split(" = ")[1]
        follow = next((p for p in parts[1:] if p.startswith(called + " = ")), None)
        if follow is not None:
            parts = [f"{_gradient(own)} = {follow}", *(p for p in parts[1:] if p != follow)]
    return parts


def _summed(parts: list[str]) -> list[str]:
    """Clauses of one gradient written as one sum: ∂L/∂X = ∂L/∂H·W₁ᵀ + ∂L/∂R (a clause with
    more than one "=" stays whole)."""
    sums: dict[str, list[str]] = {}
    for p in parts:
        sides = p.split(" = ")
        key = sides[0] if len(sides) == 2 and r"\quad" not in p else p
        sums.setdefault(key, []).append(sides[1] if key != p else p)
    return [k if v == [k] else f"{k} = " + " + ".join(v) for k, v in sums.items()]


_GRADIENT = re.compile(r"\\frac\{\\partial L\}\{\\partial \$[a-z]+\}")
_LEFT = re.compile(r"\\frac\{\\partial L\}\{\\partial \$([a-z]+)")


def _clause(step, i: int, symbol: str | None = None, out: str | None = None) -> str:
    """The part of ``step``'s gradient formula for its i-th input, that input called
    ``symbol`` (the panel's own name for it; the step's output then by the lesson's name where
    the tape gave it the same one: ∂L/∂H = ∂L/∂max(0, H) ⊙ [H > 0]), the output called ``out``
    (∂L/∂W₁ = Xᵀ·∂L/∂H, as the panel names H). An op with one clause for all its inputs: an
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
        if symbols.get("out") == symbol and left[1] != "out":
            symbols["out"] = names.symbol(step.name, step.op)
    if out:
        symbols["out"] = out
    return fill(raw[i], symbols)
