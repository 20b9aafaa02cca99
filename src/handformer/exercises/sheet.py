"""A worksheet: questions of the chosen kinds and level, on cells chosen by a seed, from one
finished run's tape.

    >>> from handformer import pipeline
    >>> from handformer.exercises.sheet import make_sheet
    >>> sheet = make_sheet(pipeline.run({}).tape, count=12, seed=1)
    >>> len(sheet), len({q.kind for q in sheet}) >= 10
    (12, True)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..errors import HandformerError
from . import kinds_attention as attention
from . import kinds_backward as backward
from . import kinds_embed as embed
from . import kinds_layers as layers
from . import kinds_modern as modern
from . import kinds_output as output
from .family_kinds import family_kinds, placed
from .question import Question

# The shared kinds in the order the lesson teaches them (a sheet lists its questions in this
# order); a family's own (Family.exercises) follow the kind each names (``all_kinds``).
SHARED_KINDS: dict[str, Callable] = {
    "token_id": embed.token_id, "positional": embed.positional, "input": embed.input_sum,
    "score": attention.score, "scale": attention.scale, "mask": attention.mask,
    "rope_pair": modern.rope_pair,
    "softmax": attention.softmax, "weighted_sum": attention.weighted_sum,
    "residual": embed.residual, "ln_mean": layers.ln_mean, "ln_std": layers.ln_std,
    "ln_norm": layers.ln_norm, "ln_value": layers.ln_value, "rms_value": modern.rms_value,
    "relu": layers.relu, "swiglu_unit": modern.swiglu_unit,
    "ffn_unit": layers.ffn_unit, "logit": output.logit,
    "probability": output.probability,
    "position_loss": output.position_loss, "loss": output.loss,
    "grad_logit": output.grad_logit, "grad_softmax": backward.grad_softmax,
    "grad_norm": backward.grad_norm, "grad_weight": backward.grad_weight,
    "sgd_update": output.sgd_update,
}
BACKWARD_KINDS = ("grad_logit", "grad_softmax", "grad_norm", "grad_weight", "sgd_update")

# easy: one operation on a few numbers; medium: one step of the lesson; hard: two steps
# chained, or a gradient (with the gradients on the tape, at least half of a hard sheet); a
# family's own kinds join the levels they name.
SHARED_LEVELS = {
    "easy": ("token_id", "positional", "input", "scale", "mask", "residual", "ln_mean", "relu",
             "swiglu_unit", "position_loss", "grad_logit", "sgd_update"),
    "medium": ("token_id", "positional", "input", "score", "scale", "mask", "rope_pair",
               "softmax", "weighted_sum", "residual", "ln_mean", "ln_std", "ln_norm",
               "rms_value", "relu", "swiglu_unit", "logit", "probability",
               "position_loss", "loss", *BACKWARD_KINDS),
    "hard": ("score", "rope_pair", "softmax", "weighted_sum", "ln_value", "rms_value",
             "ffn_unit", "logit", "loss", "grad_softmax", "grad_norm", "grad_weight",
             "sgd_update"),
}
TRIES = 20  # draws of one kind before a sheet settles for fewer distinct cells


def all_kinds() -> dict[str, Callable]:
    """Every kind in lesson order, name → its question: the shared ones and every family's
    own, each after the kind it follows."""
    own = {kind.name: kind for kind in family_kinds()}
    return {name: SHARED_KINDS[name] if name in SHARED_KINDS else own[name].ask
            for name in placed(SHARED_KINDS, own.values())}


def level_kinds(level: str) -> list[str]:
    """The kinds of a level: the shared ones and the families' own that name it."""
    return placed(SHARED_LEVELS[level], [k for k in family_kinds() if level in k.levels])


def kinds_of(tape, names: list[str] | None, level: str, table: dict | None = None) -> list[str]:
    """The kinds a sheet draws from: those named (each must have a step on this tape), or the
    level's kinds that this run has (``table``: ``all_kinds()``)."""
    table = all_kinds() if table is None else table
    if level not in SHARED_LEVELS:
        raise HandformerError(f"unknown level {level!r}: choose easy, medium or hard")
    if names:
        unknown = [n for n in names if n not in table]
        if unknown:
            raise HandformerError(f"unknown kind {unknown[0]!r}: choose from {', '.join(table)}")
        for name in names:
            _check_available(tape, name, table)
        return [n for n in table if n in names]
    found = [n for n in level_kinds(level) if table[n](tape, np.random.default_rng(0)) is not None]
    if not found:
        raise HandformerError(f"this run has no step a {level} question can be set on; "
                              "try --level medium or --backward")
    return found


def _check_available(tape, name: str, table: dict) -> None:
    if table[name](tape, np.random.default_rng(0)) is not None:
        return
    if name in BACKWARD_KINDS:
        raise HandformerError(f"questions of kind {name} need the gradients: add --backward")
    family = tape.meta.get("family", "this")
    raise HandformerError(f"the {family} family's run has no step for questions of kind "
                          f"{name}; choose other --kinds")


def make_sheet(tape, count: int = 12, seed: int = 0, kinds: list[str] | None = None,
               level: str = "medium") -> list[Question]:
    """``count`` questions on the tape: the kinds taken in turn (in an order the seed
    shuffles), each on a step and cell the seed chooses, no cell asked twice."""
    if count < 1:
        raise HandformerError(f"--count must be at least 1, not {count}")
    rng, table = np.random.default_rng(seed), all_kinds()
    pool = kinds_of(tape, kinds, level, table)
    order = _order(rng, pool, half_backward=level == "hard" and not kinds)
    sheet, seen = [], set()
    for k in range(count):
        question = _fresh(tape, rng, order[k % len(order):] + order[:k % len(order)], seen,
                          table)
        if question is None:
            break  # every kind has run out of new cells: a shorter sheet, never a repeat
        seen.add((question.kind, question.step, question.cell))
        sheet.append(question)
    rank = list(table)
    return sorted(sheet, key=lambda q: (rank.index(q.kind), tape_order(tape, q.step), q.cell))


def _order(rng, pool: list[str], half_backward: bool) -> list[str]:
    """The kinds in the order a sheet takes them, shuffled by the seed; a hard sheet alternates
    a gradient question with a forward one (so at least half of it is the backward half)."""
    order = [pool[i] for i in rng.permutation(len(pool))]
    back = [k for k in order if k in BACKWARD_KINDS]
    if not half_backward or not back:
        return order
    forward = [k for k in order if k not in BACKWARD_KINDS] or back
    return [k for n in range(max(len(back), len(forward)))
            for k in (back[n % len(back)], forward[n % len(forward)])]


def _fresh(tape, rng, order: list[str], seen: set, table: dict) -> Question | None:
    """A question on a cell not yet asked: of the first kind that still finds one."""
    for kind in order:
        for _ in range(TRIES):
            question = table[kind](tape, rng)
            if (question.kind, question.step, question.cell) not in seen:
                return question
    return None


def tape_order(tape, name: str) -> int:
    """Where a step stands on the tape (a parameter, updated last, after every step)."""
    return next((k for k, s in enumerate(tape.steps) if s.name == name), len(tape.steps))
