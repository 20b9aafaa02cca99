"""A step's formula is filled once for every language (context._latex): what the narration
gets is what the op's own ``latex`` gives for the same symbols, with and without the ones a
narrator sets, for the forward formula and the gradient's."""

from __future__ import annotations

import handformer
from handformer.engine.ops import get
from handformer.engine.tape import INPUT
from handformer.narrate.context import Ctx


def test_every_formula_is_the_ops_own():
    tape = handformer.walk(backward=True)
    for lang in ("en", "zh"):
        ctx = Ctx(tape, lang)
        for step in tape.steps:
            if step.op == INPUT:
                assert ctx.formula(step.name) == ""
                continue
            op = get(step.op)
            for grad in (False, True):
                assert ctx.formula(step.name, grad=grad) == op.latex(dict(step.symbols), grad=grad)
                given = {"x": "Z", "out": "R"}
                assert ctx.formula(step.name, grad=grad, **given) == op.latex(
                    {**given, **step.symbols}, grad=grad)
