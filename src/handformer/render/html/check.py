""""Check yourself" on the page: after each part of the walk (embedding, attention, add & norm,
feed-forward, prediction, loss, backward) one or two questions on the run shown, placed after
the panel of the step they ask about, each with its given numbers, a box for the answer, a hint
and the worked answer; the page's script checks the typed number within the tolerance, offline.
The questions and answers are the worksheet's (handformer.exercises): read off the tape."""

from __future__ import annotations

import copy
import math
import re

from ... import i18n
from ...exercises import words
from ...exercises.family_kinds import family_kinds, placed
from ...exercises.question import Question
from ...exercises.sheet import all_kinds
from ...files.kept_params import params_kept
from .kept_draws import Draws
from .view import mathml

# The parts of the walk, each with the shared kinds of question it may set (a family's own
# join the part they name: parts()) and how many it sets.
PARTS = (("embedding", ("positional", "input"), 1),
         ("attention", ("score", "softmax", "weighted_sum", "mask"), 2),
         ("norm", ("residual", "ln_norm", "ln_mean"), 1),
         ("ffn", ("relu",), 1),
         ("prediction", ("logit", "probability"), 1),
         ("loss", ("loss", "position_loss"), 1),
         ("backward", ("grad_logit", "grad_softmax", "grad_norm", "sgd_update"), 2))
SEED = 0  # the page shows the same questions every time it is made from the same run
DRAWS = 8  # cells drawn for one kind before the part asks another kind


def questions(tape, panel_ids: list[str]) -> list[Question]:
    """The page's questions, part by part, kinds in an order the seed shuffles, each on a step
    the page shows (a few draws per kind: a model of many heads shows only some). Only what
    the tape's file keeps is used (a pretrained model's weights it does not), so the page drawn
    from a saved tape (`handformer render`) is the walk's page. The draws are numpy's
    ``default_rng(SEED)``'s, kept between runs (kept_draws.py)."""
    if not params_kept(tape):
        tape = copy.copy(tape)
        tape.params = {}
    rng, found, shown, table = Draws(SEED), [], set(panel_ids), all_kinds()
    for _, kinds, count in parts():
        made = [_shown(kinds[i], tape, rng, shown, table) for i in rng.permutation(len(kinds))]
        found += [q for q in made if q is not None][:count]
    rng.keep()
    return found


def parts() -> list[tuple[str, list[str], int]]:
    """PARTS with every family's own kinds in the part each names."""
    own = family_kinds()
    return [(part, placed(kinds, [k for k in own if k.part == part]), count)
            for part, kinds, count in PARTS]


def _shown(kind: str, tape, rng, shown: set, table: dict) -> Question | None:
    for _ in range(DRAWS):
        question = _ask(table[kind], tape, rng)
        if question is None or panel_of(question, shown) is not None:
            return question
    return None


def _ask(ask, tape, rng) -> Question | None:
    try:
        return ask(tape, rng)
    except KeyError:  # a number the question gives is a parameter the tape does not hold
        return None


def panels_of(question: Question) -> list[str]:
    """The ids of the panels that may show the question's step, the closest first: one head's
    panel for attention, the step's own, the block it is part of (a family whose story shows
    a layer norm or an FFN as one panel)."""
    if question.field == "update.after":
        return [f"update.{question.step}"]
    if question.field == "grad":  # or the panel it is told with (∂L/∂R with ∂L/∂LN(R))
        block = question.step.rpartition(".")[0]
        return [f"grad.{question.step}", f"grad.{block}.out", f"grad.{block}.scores"]
    block, _, last = question.step.rpartition(".")
    head = [f"{block}.head.{question.cell[0]}.{last}"] if (
        question.part == "attention" and len(question.cell) == 3) else []
    return [*head, question.step, block]


def panel_of(question: Question, shown) -> str | None:
    """The page's panel for the question (None when the page does not show its step)."""
    return next((p for p in panels_of(question) if p in shown), None)


def check_blocks(tape, langs: list[str], panel_ids: list[str]) -> dict[str, list[dict]]:
    """The checks to draw after each panel (by panel id); a question whose panel is not on the
    page (--steps) is left out."""
    placed = [(panel_ids.index(panel_of(q, panel_ids)), q)
              for q in questions(tape, panel_ids) if panel_of(q, panel_ids) is not None]
    blocks: dict[str, list[dict]] = {}
    for n, (index, question) in enumerate(sorted(placed, key=lambda p: p[0]), 1):
        blocks.setdefault(panel_ids[index], []).append(check_view(n, question, langs))
    return blocks


def check_view(n: int, question: Question, langs: list[str]) -> dict:
    """What the template draws of one check: the answer and tolerance (for the script) and
    the words of each language."""
    answer = "-inf" if math.isinf(question.answer) else repr(question.answer)
    return {"id": f"check-{n}", "answer": answer, "tol": repr(float(question.tolerance)),
            "formula": mathml(as_tex(question.formula), False, f"check {question.kind}"),
            "step": question.step, "field": question.field,
            "cell": list(question.cell),
            "text": {code: _words(question, code) for code in langs}}


def as_tex(formula: str) -> str:
    """A worksheet's plain formula as TeX, for MathML like the page's other formulas: every
    subscript braced (A_ij → A_{ij}), a parenthesised power raised whole (e^(−g) → e^{−g}),
    a set's braces kept (\\{0, 1, …\\})."""
    tex = re.sub(r"\^\(([^()]*)\)", r"^{\1}", formula)
    tex = re.sub(r"(?<![_^])\{([^{}]*)\}", r"\\{\1\\}", tex)
    return re.sub(r"_(:?[A-Za-z0-9]+)", lambda m: "_{" + m.group(1) + "}", tex)


def _words(question: Question, lang: str) -> dict:
    table = i18n.table(lang)
    return {"ask": words.ask(question, lang), "tolerance": words.tolerance_text(question, lang),
            "hint": words.hint(question, lang), "answer": words.answer_text(question),
            "right": (i18n.t(lang, "ex.check.right", tol=f"{question.tolerance:.2g}")
                      if question.tolerance > 0 else i18n.t(lang, "ex.check.right_exact")),
            "given": [{"label": table[g.label], "symbol": g.symbol,
                       "value": words.value_text(g)} for g in question.given]}
