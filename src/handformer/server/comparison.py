"""POST /api/compare: two runs, a (pinned) and b, step by step (compare.py says how far each
step moved and where the runs part).

The body is {"a": walk body, "b": walk body (default: a), "job": id, "edit": one weight,
"train_steps": N}. b's model is b's walk body's, or with "job" the trained model of that
training job of this session, walked on b's sentences as /api/panels/changed walks it
(server/trained.py); a's model is then the same model before training (the job's initial
weights: its vocabulary, not the configured model's), walked on a's sentences. "edit" and
"train_steps" change b's model, the trained one too: one weight of it, or N more SGD steps
from its trained weights.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..errors import HandformerError
from . import compare as diff
from . import fields
from .api import handles_errors, read_json, settings, within_budget
from .budget import check_numbers, walk_numbers
from .change import apply as apply_change
from .change import parse_change
from .limits import RequestError
from .requests import field_of, parse_walk
from .trained import trained_walk

SENTENCES = ("src", "tgt", "backward", "lr")  # what a walk body says of the job's model


@handles_errors
async def compare(request: Request) -> Response:
    """Every step's largest change between run a and run b, and where the runs part."""
    body = fields.read(await read_json(request), fields.COMPARE)
    limits = settings(request)[0]
    if "job" in body:
        a, b = await _trained(request, body, "a", True), await _trained(request, body, "b", False)
    else:
        a, b = _parsed(body, "a", limits), _parsed(body, "b", limits)
    change = parse_change(body, b.setup.params)
    numbers = check_numbers(compare_numbers((a, b), change.train_steps), limits)

    def work():
        with refused_as("a"):
            first = a.tape()
        with refused_as("b"):
            second = apply_change(b, change).tape()
        return diff.compare(first, second)

    return JSONResponse(await within_budget(request, numbers, work))


def _parsed(body: dict, key: str, limits):
    """Run ``key``'s walk body (b's defaults to a's), its refusals named "a.…" or "b.…"."""
    try:
        return parse_walk(body.get(key, body.get("a")), limits)
    except RequestError as err:
        raise _named(key, err) from None


async def _trained(request: Request, body: dict, key: str, before: bool):
    """Run ``key`` as the job's model on ``key``'s sentences: trained, or ``before`` training;
    an unknown job, or one with no model yet, is 422 naming "job" (a field of this body, as
    "edit.param" is)."""
    sentences = fields.read(body.get(key, body.get("a")), fields.WALK, f"{key}.")
    try:
        return await trained_walk(request, body["job"],
                                  {k: sentences[k] for k in SENTENCES if k in sentences}, 422,
                                  before)
    except RequestError as err:
        if err.field == "job":
            raise
        raise _named(key, err) from None


@contextmanager
def refused_as(key: str):
    """What a run's sentences or model refuse while it is counted or walked (a word not in a
    trained model's vocabulary, an empty sentence), named as that run's field ("b.src")."""
    try:
        yield
    except HandformerError as err:  # the message as it is, so the page says it in its language
        field = field_of(err)
        raise RequestError(str(err), f"{key}.{field}" if field else key) from None


def _named(key: str, err: RequestError) -> RequestError:
    field = f"{key}.{err.field}" if err.field else key
    return RequestError(f"{key}: {err.message}", field, err.status)


def compare_numbers(runs, train_steps: int) -> int:
    """Both tapes, and each training step's forward and backward pass of the second run."""
    with refused_as("a"):
        a = walk_numbers(runs[0])
    with refused_as("b"):
        b = walk_numbers(runs[1])
    step = walk_numbers(replace(runs[1], backward=True))
    return a + b + train_steps * step
