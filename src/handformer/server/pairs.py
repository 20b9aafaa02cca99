"""POST /api/pairs: the sentence pairs a corpus trains on, as the page lists them for editing.

The body is {"corpus": text} (absent or empty: the tutorial's dataset); the answer is
{"pairs": [[source, target], ...]}, cut as training cuts them (server/training.py), or the
refusal of the first line with no separator, naming it.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from . import api, fields
from .requests import dataset_of
from .training import corpus_pairs


@api.handles_errors
async def pairs(request: Request) -> Response:
    body = fields.read(await api.read_json(request), fields.PAIRS)
    limits, _jobs = api.settings(request)
    return JSONResponse({"pairs": [list(p) for p in corpus_pairs(dataset_of(body, limits))]})
