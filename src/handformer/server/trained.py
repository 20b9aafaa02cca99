"""A model this session trained, as a walk: the job's state saved as the checkpoint `handformer
train` writes and read back as `walk --checkpoint` reads one (its config, vocabulary and trained
weights), on the sentences a request names.

The quiz on the trained model, the walkthrough's "walk the trained model"
(/api/panels/changed with "job") and a comparison's run b (/api/compare with "job") all take
it from here, so the three show one and the same model; a comparison's run a is the same
model before training (the job's initial weights), from here too.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from starlette.requests import Request

from .. import pipeline
from ..train import checkpoint, loop
from .api import settings, within_budget
from .limits import RequestError
from .requests import Walk, sentences_of


def trained_run(request: Request, job_id: str, status: int | None = None):
    """The training run of this session's job ``job_id`` once it has a model. Refused naming
    "job": 404 for a job the session does not have, 409 for one with no model yet; ``status``
    answers both instead (422 where the job is a field of a body, as in /api/compare)."""
    job = request.state.session.jobs.get(job_id)
    if job is None:
        raise RequestError("no such training job in this session", "job", status or 404)
    run = settings(request)[1].model(job)
    if run is None:
        raise RequestError("this job has no model yet (still training, or stopped before an "
                           "epoch)", "job", status or 409)
    return run


async def trained_walk(request: Request, job_id: str, sentences: dict,
                       status: int | None = None, before: bool = False) -> Walk:
    """The job's trained model as a walk of ``sentences`` (a walk body's "src", "tgt",
    "backward" and "lr"; its other fields are the configured model's, not this one's); a
    sentence not given is the tutorial's, as in `walk --checkpoint`. ``before``: the same
    model before training, its initial weights."""
    run = trained_run(request, job_id, status)
    # a job keeps its initial weights as long as its run (jobs.py forgets both together)
    weights = request.state.session.jobs[job_id].initial if before else run.params
    src, tgt, backward, lr = sentences_of(sentences, settings(request)[0])
    # The snapshot (weights and Adam's two moments), the loaded weights and the initial ones.
    numbers = 5 * sum(v.size for v in run.params.values())
    return await within_budget(request, numbers,
                               lambda: _walk_of(run, weights, src, tgt, backward, lr))


def _walk_of(run, weights: dict, src, tgt, backward: bool, lr: float) -> Walk:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "trained.ckpt"
        saved = replace(loop.snapshot(run, ""), params=weights)  # "": no dataset's sentences
        checkpoint.save(path, saved)
        family, model = pipeline.prepare({"checkpoint": str(path)})
    return Walk(family, model, src, tgt, backward, lr)
