"""POST /api/train/{job}/pace: how a training job goes (server/pacing.py holds it).

The body is {"pause": true|false, "step": N, "epochs_per_second": x or null}, each optional:
"pause" holds the job at its next batch (or lets it go on), "step" lets it train N more epochs
and then holds it, "epochs_per_second" slows it (null: as fast as it can). The answer is the
job's status, which says "paused" and "epochs_per_second".
"""

from __future__ import annotations

import math

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from . import api, fields
from .limits import RequestError, check_range

MAX_STEP = 1000


@api.handles_errors
async def pace(request: Request) -> Response:
    job = api.job_of(request)
    body = fields.read(await api.read_json(request), fields.PACE)
    if "epochs_per_second" in body:
        rate = body["epochs_per_second"]
        if rate is not None and (isinstance(rate, bool) or not isinstance(rate, (int, float))
                                 or not math.isfinite(rate) or not 0 < rate <= 1000):
            raise RequestError(f"epochs_per_second must be a number in (0, 1000] or null, "
                               f"got {rate!r}", "epochs_per_second")
        job.pace.per_second = rate
    if "pause" in body:
        job.pace.steps = None
        (job.pace.go.clear if body["pause"] else job.pace.go.set)()
    if "step" in body:
        job.pace.steps = check_range(body["step"], "step", 1, MAX_STEP)
        job.pace.go.set()
    return JSONResponse(job.status())
