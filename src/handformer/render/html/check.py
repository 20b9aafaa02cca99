""""Check yourself" on the page: after each part of the walk (embedding, attention, add & norm,
feed-forward, prediction, loss, backward) one or two questions on the run shown, placed after
the panel of the step they ask about, each with its given numbers, a box for the answer, a hint
and the worked answer; the page's script checks the typed number within the tolerance, offline.
The questions and answers are the worksheet's (handformer.exercises): read off the tape."""

from __future__ import annotations

import copy
import math

import numpy as np

from ... import i18n
from ...exercises import words
from ...exercises.question import Question
from ...exercises.sheet import KINDS
from ...files.tape_json import params_kept

# The parts of the walk, each with the kinds of question it may set and how many it sets.
PARTS = (("embedding", ("positional", "input"), 1),
         ("attention", ("score", "softmax", "weighted_sum", "mask"), 2),
         ("norm", ("residual", "ln_norm", "ln_mean"), 1),
         ("ffn", ("relu", "gelu"), 1),
         ("prediction", ("logit", "probability"), 1),
         ("loss", ("loss",), 1),
         ("backward", ("grad_logit", "sgd_update"), 1))
SEED = 0  # the page shows the same questions every time it is made from the same run


def questions(tape) -> list[Question]:
    """The page's questions, part by part, kinds in an order the seed shuffles. Only what the
    tape's file keeps is used (a pretrained model's weights it does not), so the page drawn
    from a saved tape (`handformer render`) is the walk's page."""
    if not params_kept(tape):
        tape = copy.copy(tape)
        tape.params = {}
    rng, found = np.random.default_rng(SEED), []
    for _, kinds, count in PARTS:
        made = [_ask(kinds[i], tape, rng) for i in rng.permutation(len(kinds))]
        found += [q for q in made if q is not None][:count]
    return found


def _ask(kind: str, tape, rng) -> Question | None:
    try:
        return KINDS[kind](tape, rng)
    except KeyError:  # a number the question gives is a parameter the tape does not hold
        return None


def panel_of(question: Question) -> str:
    """The id of the panel that shows the question's step (one head's panel for attention)."""
    if question.field == "update.after":
        return f"update.{question.step}"
    if question.field == "grad":
        return f"grad.{question.step}"
    if question.part == "attention" and len(question.cell) == 3:
        block, _, last = question.step.rpartition(".")
        return f"{block}.head.{question.cell[0]}.{last}"
    return question.step


def check_blocks(tape, langs: list[str], panel_ids: list[str]) -> dict[str, list[dict]]:
    """The checks to draw after each panel (by panel id); a question whose panel is not on the
    page (--steps) is left out."""
    shown = sorted((q for q in questions(tape) if panel_of(q) in panel_ids),
                   key=lambda q: panel_ids.index(panel_of(q)))
    blocks: dict[str, list[dict]] = {}
    for n, question in enumerate(shown, 1):  # numbered in reading order
        blocks.setdefault(panel_of(question), []).append(check_view(n, question, langs))
    return blocks


def check_view(n: int, question: Question, langs: list[str]) -> dict:
    """What the template draws of one check: the answer and tolerance (for the script) and
    the words of each language."""
    answer = "-inf" if math.isinf(question.answer) else repr(question.answer)
    return {"id": f"check-{n}", "answer": answer, "tol": repr(float(question.tolerance)),
            "formula": question.formula, "step": question.step, "cell": list(question.cell),
            "text": {code: _words(question, code) for code in langs}}


def _words(question: Question, lang: str) -> dict:
    table = i18n.table(lang)
    return {"ask": words.ask(question, lang), "tolerance": words.tolerance_text(question, lang),
            "hint": words.hint(question, lang), "answer": words.answer_text(question),
            "right": (i18n.t(lang, "ex.check.right", tol=f"{question.tolerance:.2g}")
                      if question.tolerance > 0 else i18n.t(lang, "ex.check.right_exact")),
            "given": [{"label": table[g.label], "symbol": g.symbol,
                       "value": words.value_text(g)} for g in question.given]}
