"""The web app's quiz: the worksheet's questions (handformer.exercises) on the model the page
configured, the answers kept on the server and checked there, a running score per session.

    POST /api/quiz          {"walk": a walk body, "count", "seed", "level", "kinds", "lang"}
                            → {"questions": [... without answers], "score": {...}}
                            or, on a model trained here, {"job": its id, "src", "tgt",
                            "backward", ...} in place of "walk"
    POST /api/quiz/answer   {"id": a question's id, "answer": a number or "-inf",
                             "reveal": true to see the answer without a try}
                            → {"right": …, "answer" (once right or revealed), "score": {...}}
    GET  /api/quiz/score    → {"asked", "answered", "right"}

A question counts once, at its first answer (so a score cannot be raised by trying again).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .. import i18n
from ..exercises.render_json import finite, question_json
from ..exercises.sheet import make_sheet
from . import fields
from .api import handles_errors, read_json, settings, within_budget
from .budget import check_numbers, walk_numbers
from .limits import RequestError
from .requests import expect_object, parse_walk, reject_unknown
from .sessions import LRU
from .trained import trained_walk

QUIZ_FIELDS = {"walk", "count", "seed", "level", "kinds", "lang"}
JOB_FIELDS = {"job", "src", "tgt", "backward"}
MAX_QUESTIONS = 20


@dataclass
class Quiz:
    """One session's questions by id, and which were answered and how."""

    questions: dict = field(default_factory=dict)
    first_try: dict = field(default_factory=dict)  # id → right at the first answer

    def score(self) -> dict:
        return {"asked": len(self.questions), "answered": len(self.first_try),
                "right": sum(self.first_try.values())}


def quizzes(request: Request) -> LRU:
    state = request.app.state
    if not hasattr(state, "quizzes"):
        state.quizzes = LRU(state.limits.max_sessions)
    return state.quizzes


def _quiz(request: Request) -> Quiz:
    found = quizzes(request).get(request.state.session.id)
    if found is None:
        raise RequestError("this session has no quiz: POST /api/quiz first", None, 404)
    return found


def _parse(body) -> dict:
    body = expect_object(body)
    reject_unknown(body, QUIZ_FIELDS)
    count, seed = body.get("count", 6), body.get("seed", 0)
    for name, value, low, high in (("count", count, 1, MAX_QUESTIONS), ("seed", seed, 0, 2**32)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RequestError(f"{name} must be a whole number from {low} to {high}", name)
    kinds = body.get("kinds")
    if kinds is not None and not (isinstance(kinds, list) and all(isinstance(k, str)
                                                                  for k in kinds)):
        raise RequestError("kinds must be a list of kind names", "kinds")
    level, lang = body.get("level", "medium"), body.get("lang", i18n.FIRST)
    if level not in ("easy", "medium", "hard"):
        raise RequestError("level must be easy, medium or hard", "level")
    if lang not in i18n.languages():  # the tables' languages, a registered one too
        raise RequestError(f"lang must be one of {', '.join(i18n.languages())}", "lang")
    return {"count": count, "seed": seed, "kinds": kinds, "level": level, "lang": lang}


@handles_errors
async def start(request: Request) -> Response:
    """A new quiz for this session (the last one's questions are forgotten)."""
    limits = settings(request)[0]
    body = fields.read(await read_json(request), fields.QUIZ)
    asked = _parse({k: v for k, v in body.items() if k not in {"walk"} | JOB_FIELDS})
    if "job" in body:
        if "walk" in body:
            raise RequestError("give either walk (a configured model) or job (a trained one)",
                               "job")
        walk = await trained_walk(request, body["job"], body)
    else:
        walk = parse_walk(body.get("walk", {}), limits)
    numbers = check_numbers(walk_numbers(walk), limits)

    def work():
        return make_sheet(walk.tape(), asked["count"], asked["seed"], asked["kinds"],
                          asked["level"])

    sheet = await within_budget(request, numbers, work)
    quiz = Quiz({f"q{n}": q for n, q in enumerate(sheet, 1)})
    quizzes(request).put(request.state.session.id, quiz)
    views = [question_json(n, q, asked["lang"], key=False) | {"id": f"q{n}"}
             for n, q in enumerate(sheet, 1)]
    return JSONResponse({"questions": views, "score": quiz.score()})


def typed_number(value) -> float:
    """A number, or its text ("0.25", "−0.25", "-inf", "−∞")."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        text = value.strip().replace("−", "-").replace("∞", "inf").replace(" ", "")
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if not math.isnan(number):
            return number
    raise RequestError("answer must be a number (or \"-inf\")", "answer")


@handles_errors
async def answer(request: Request) -> Response:
    """Check one answer on the server; the first answer to a question counts in the score."""
    body = fields.read(await read_json(request), fields.ANSWER_FIELDS)
    quiz = _quiz(request)
    question = quiz.questions.get(body.get("id"))
    if question is None:
        raise RequestError("no such question in this session's quiz", "id", 404)
    reveal = body.get("reveal", False) is True
    reply = {"id": body["id"]}
    if not reveal:
        right = question.accepts(typed_number(body.get("answer")))
        quiz.first_try.setdefault(body["id"], right)
        reply["right"] = right
    if reveal or reply.get("right"):
        reply["answer"] = finite(question.answer)
        quiz.first_try.setdefault(body["id"], False)  # seen before tried: counted as missed
    return JSONResponse(reply | {"score": quiz.score()})


@handles_errors
async def score(request: Request) -> Response:
    return JSONResponse(_quiz(request).score())
