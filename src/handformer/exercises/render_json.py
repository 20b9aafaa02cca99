"""A worksheet as JSON: each question with its step name, field and cell on the tape, the
values it gives (in full, and as the worksheet shows them), the answer and its tolerance
(``--no-key``: no answer)."""

from __future__ import annotations

import json
import math

from .. import i18n
from .question import Question
from .words import ask, run_text, value_text

FORMAT = "handformer.exercises/1"


def finite(value):
    """JSON has no infinity: −∞ is written "-inf", as the tape file writes it."""
    if isinstance(value, list):
        return [finite(v) for v in value]
    if isinstance(value, float) and math.isinf(value):
        return "-inf" if value < 0 else "inf"
    return value


def question_json(n: int, question: Question, lang: str, key: bool) -> dict:
    entry = {"n": n, "kind": question.kind, "part": question.part, "step": question.step,
             "field": question.field, "cell": list(question.cell), "question": ask(question, lang),
             "formula": question.formula,
             "given": [{"label": g.label, "name": i18n.t(lang, g.label), "symbol": g.symbol,
                        "value": finite(g.value), "shown": value_text(g)}
                       for g in question.given],
             "tolerance": question.tolerance}
    if key:
        entry["answer"] = finite(question.answer)
    return entry


def render(sheet: list[Question], meta: dict, lang: str, key: bool = True, **settings) -> str:
    document = {"format": FORMAT, "lang": lang, "run": run_text(meta), **settings,
                "questions": [question_json(n, q, lang, key) for n, q in enumerate(sheet, 1)]}
    return json.dumps(document, ensure_ascii=False, indent=1, allow_nan=False) + "\n"
