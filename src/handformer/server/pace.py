"""POST /api/train/{job}/pace: how a training job goes (server/pacing.py holds it).

The body is {"pause": true|false, "step": N, "epochs_per_second": x or null, "lr": η,
"epochs": N}, each optional: "pause" holds the job at its next batch (or lets it go on), "step"
lets it train N more epochs and then holds it, "epochs_per_second" slows it (null: as fast as it
can); "lr" is the learning rate of its next update, "epochs" how many it trains in all (fewer
than it has done: it ends after the epoch under way). The answer is the job's status, which says
"paused", "epochs_per_second", "lr" and "epochs".

The rate is bounded both ways: at most MAX_RATE, and at least MIN_RATE, so that the wait after
an epoch (1 / rate: at most 100 s) stays below the pause limit (Limits.max_pause_seconds,
600 s); 1e-9 kept a job asleep for 31 years holding a training slot, and 1e-300 overflowed
the wait's timeout.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from . import api, fields
from .limits import RequestError, check_range
from .training import check_lr

MAX_STEP = 1000
MIN_RATE, MAX_RATE = 0.01, 1000.0  # epochs per second


@api.handles_errors
async def pace(request: Request) -> Response:
    job = api.job_of(request)
    body = fields.read(await api.read_json(request), fields.PACE)
    _retune(job, body, api.settings(request)[0])
    if "epochs_per_second" in body:
        rate = body["epochs_per_second"]
        if rate is not None and not MIN_RATE <= rate <= MAX_RATE:
            raise RequestError(f"epochs_per_second must be from {MIN_RATE:g} to {MAX_RATE:g} "
                               f"(or null: as fast as it can), got {rate!r}",
                               "epochs_per_second")
        job.pace.per_second = None if rate is None else float(rate)
    if "pause" in body:
        job.pace.steps = None
        (job.pace.go.clear if body["pause"] else job.pace.go.set)()
    if "step" in body:
        job.pace.steps = check_range(body["step"], "step", 1, MAX_STEP)
        job.pace.go.set()
    return JSONResponse(job.status())


def _retune(job, body: dict, limits) -> None:
    """The job's learning rate and epoch count, read by its loop at its next step and epoch."""
    if "lr" not in body and "epochs" not in body:
        return
    lr = check_lr(body["lr"]) if "lr" in body else None
    epochs = check_range(body["epochs"], "epochs", 1, limits.max_epochs) if "epochs" in body else None
    run = job.run
    if not job.active or run is None:
        raise RequestError("this job has ended: lr and epochs apply to a running job", "job", 409)
    if lr is not None:
        run.options.lr = run.optimizer.lr = lr
    if epochs is not None:
        run.options.epochs = job.epochs = epochs
