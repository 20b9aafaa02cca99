"""The JSON API under /api/: walk, panels, train (start, progress, events, stop), translate;
and what the other handlers share (errors, JSON bodies, the budget). /api/compare is
comparison.py's, /api/panels/changed changed.py's.

Handlers read the JSON body, check it (requests.py, limits.py), compute in a worker thread,
and answer JSON. Errors are {"error": message, "field": the request field or null, and for the common
ones "key" and "values" (error_text.py)}: 400 for
malformed JSON or a field of the wrong JSON type (fields.py), 413 for a body too large, 415 for a body that is not JSON, 404 for a job this
session does not have, 422 for everything the engine or the limits refuse, 429 when too many
jobs run.
"""

from __future__ import annotations

import asyncio
import json

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from ..errors import HandformerError
from . import json_body, pages
from .budget import check_numbers, walk_numbers
from .error_text import localisable
from .jobs import new_run
from .limits import RequestError
from .requests import field_of, parse_walk
from .training import parse_train, parse_translate, translation_json


def error(message: str, field: str | None, status: int) -> JSONResponse:
    """The English message, its field, and for a common refusal its key and numbers (the page
    says those in its language)."""
    return JSONResponse({"error": message, "field": field} | localisable(message),
                        status_code=status)


def handles_errors(handler):
    """RequestError and HandformerError become JSON errors (422 unless said otherwise)."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except RequestError as err:
            return error(err.message, err.field, err.status)
        except HandformerError as err:
            return error(str(err), field_of(err), 422)
        except MemoryError:
            return error("the server ran out of memory for this request; try smaller sizes",
                         None, 503)


    wrapped.__name__ = handler.__name__
    return wrapped


async def read_json(request: Request):
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise RequestError("send the body as JSON (Content-Type: application/json)", None, 415)
    return json_body.parse(await request.body())


def settings(request: Request):
    return request.app.state.limits, request.app.state.jobs


async def within_budget(request: Request, numbers: int, work):
    """``work()`` in a worker thread once the server's budget has room for ``numbers``."""
    budget = request.app.state.budget

    def held():
        with budget.hold(numbers):
            return work()

    return await run_in_threadpool(held)


@handles_errors
async def walk(request: Request) -> Response:
    """The tape of one run, byte for byte what `handformer walk --format json` writes."""
    limits = settings(request)[0]
    w = parse_walk(await read_json(request), limits)
    numbers = check_numbers(walk_numbers(w), limits)
    text = await within_budget(request, numbers, lambda: pages.tape_json(_tape(w)))
    return Response(text, media_type="application/json")


def _tape(w):
    return w.tape()


@handles_errors
async def panels(request: Request) -> Response:
    """The walkthrough's panels as HTML (both languages), for the page to swap in."""
    limits = settings(request)[0]
    w = parse_walk(await read_json(request), limits)
    numbers = check_numbers(walk_numbers(w), limits)
    return JSONResponse(await within_budget(request, numbers, lambda: _panels_of(w)))


def _panels_of(w) -> dict:
    """The panels, and the model's parameter names and shapes (the page's weight-edit list)."""
    tape = _tape(w)
    return pages.walk_panels(tape) | {"params": {k: list(v.shape) for k, v in tape.params.items()}}


@handles_errors
async def train_start(request: Request) -> Response:
    limits, jobs = settings(request)
    cfg, pairs, options, numbers = parse_train(await read_json(request), limits)
    run = await run_in_threadpool(new_run, cfg, pairs, options)
    job = jobs.start(request.state.session, run, options.epochs, numbers,
                     request.app.state.budget)
    return JSONResponse(job.status(), status_code=202)


def job_of(request: Request):
    job = request.state.session.jobs.get(request.path_params["job"])
    if job is None:
        raise RequestError("no such training job in this session", "job", 404)
    return job


@handles_errors
async def train_status(request: Request) -> Response:
    return JSONResponse(job_of(request).status())


@handles_errors
async def train_events(request: Request) -> Response:
    """Server-sent events: one line per finished epoch (the status as of that epoch, its loss
    and accuracy from index "from"), then the final status, until the job ends."""
    job = job_of(request)

    async def events():
        sent = 0
        while True:
            s = job.status()
            # Epochs can finish faster than this polls: each still gets its own line.
            for epoch in range(sent, s["epochs_done"]):
                yield _event(_as_of_epoch(s, epoch))
            sent = s["epochs_done"]
            if s["state"] != "running":
                yield _event(s | {"from": sent, "losses": [], "accuracy": []})
                return
            await asyncio.sleep(0.2)

    return StreamingResponse(events(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store"})


def _as_of_epoch(status: dict, epoch: int) -> dict:
    """The job's status as it stood when epoch ``epoch`` (from 0) had just finished."""
    loss, accuracy = status["losses"][epoch], status["accuracy"][epoch]
    return status | {"state": "running", "epochs_done": epoch + 1, "loss": loss, "final": None,
                     "from": epoch, "losses": [loss], "accuracy": [accuracy]}


def _event(status: dict) -> str:
    return f"data: {json.dumps(status)}\n\n"


@handles_errors
async def train_list(request: Request) -> Response:
    return JSONResponse({"jobs": [j.status() for j in request.state.session.jobs.values()]})


@handles_errors
async def train_cancel(request: Request) -> Response:
    job = job_of(request)
    job.cancel.set()
    return JSONResponse(job.status())


@handles_errors
async def translate(request: Request) -> Response:
    """Decode a sentence with a job's trained model; with "explain", the decoding panels too."""
    body = await read_json(request)
    limits, jobs = settings(request)
    t = parse_translate(body, limits)
    job = request.state.session.jobs.get(t.job)
    if job is None:
        raise RequestError("no such training job in this session", "job", 404)
    run = jobs.model(job)
    if run is None:
        raise RequestError("this job has no model to translate with (still training, "
                           "stopped before its first epoch, or dropped from memory: train "
                           "again)", "job", 409)
    return JSONResponse(await run_in_threadpool(lambda: translation_json(run, t)))
