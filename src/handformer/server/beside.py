"""POST /api/train/{job}/beside: the untrained model beside the trained one on one sentence pair.

The body is {"src": ..., "tgt": ...}. For the job's initial weights (what it started from: same
config and seed) and its trained weights, one teacher-forced forward pass of the pair (the
walk's), and from each: p(target) at every position, the word each position picks (its
largest probability), and the mean −ln p(target). The answer:

    {"targets": [words], "untrained": {"p_target": [...], "picked": [words], "loss": x},
     "trained": {...}, "epochs": epochs trained}
"""

from __future__ import annotations

import math

import numpy as np
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..engine.tape import Tape
from ..families import registry
from ..text import make_example
from . import api, fields
from .limits import RequestError, check_sentence


@api.handles_errors
async def beside(request: Request) -> Response:
    job = api.job_of(request)
    body = fields.read(await api.read_json(request), fields.BESIDE)
    limits, jobs = api.settings(request)
    src = check_sentence(body.get("src"), "src", limits)
    tgt = check_sentence(body.get("tgt"), "tgt", limits)
    run, initial = jobs.model(job), job.initial
    if run is None or initial is None:
        raise RequestError("this job has no trained model yet (still training, stopped before "
                           "its first epoch, or dropped from memory)", "job", 409)
    return JSONResponse(await run_in_threadpool(lambda: both(run, initial, src, tgt)))


def both(run, initial: dict, src: str, tgt: str) -> dict:
    """The pair under the initial and the trained weights."""
    example = make_example(run.vocab, src, tgt, run.config.max_len)
    words = run.vocab.target.tokens
    return {"targets": [words[i] for i in example.out_ids], "epochs": run.epoch,
            "untrained": view(initial, run.config, example, words),
            "trained": view(run.params, run.config, example, words)}


def view(params: dict, config, example, words) -> dict:
    tape = Tape(params)
    registry.get(registry.DEFAULT).forward(tape, config, example.src_ids, example.tgt_ids)
    probs = np.asarray(tape["generator.probs"])
    p = [float(probs[t, i]) for t, i in enumerate(example.out_ids)]
    return {"p_target": p, "picked": [words[int(i)] for i in np.argmax(probs, axis=-1)],
            "loss": sum(-math.log(max(x, 1e-300)) for x in p) / len(p)}
