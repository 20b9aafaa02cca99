"""POST /api/panels/changed: after an edit, only the panels the page does not already hold.

The body is {"walk": a walk body, "have": {panel id: digest}, "only": [panel ids] or null,
"frame": digest or null, "edit" and "train_steps" as /api/compare's}: the page says which panels it holds (the digests a former answer gave)
and, to get the panels in view first, which it wants now. The answer is {"order": every panel
id, "digests": id → digest, "panels": id → HTML of each wanted panel whose digest the page
lacks, "frame": digest of the order and titles, "toc": contents HTML when the page's frame
differs (else null), "params": name → shape}. With "edit" or "train_steps" the panels are the
changed run's (compare's run b): the walkthrough of the model the user edited or trained. With
"job" (a training job of this session) they are its trained model's, on the walk's sentences
(its "src", "tgt", "backward" and "lr"; the model's own config and vocabulary), and "edit" or
"train_steps" change that model as they change compare's run b with "job" (server/trained.py).
"""

from __future__ import annotations

from dataclasses import replace

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from . import api, fields, pages
from .budget import check_numbers, walk_numbers
from .change import apply as apply_change
from .change import parse_change
from .limits import RequestError
from .requests import parse_walk
from .trained import trained_walk

MAX_IDS = 10_000  # more panel ids than any walk this server allows has


@api.handles_errors
async def changed(request: Request) -> Response:
    body = fields.read(await api.read_json(request), fields.CHANGED)
    have, only, frame = _have(body.get("have")), _only(body.get("only")), body.get("frame")
    limits = api.settings(request)[0]
    if "job" in body:
        walk = fields.read(body.get("walk", {}), fields.WALK)
        w = await trained_walk(request, body["job"], walk)
    else:
        w = parse_walk(body.get("walk", {}), limits)  # its fields are named as in /api/walk
    change = parse_change(body, w.setup.params)
    step = walk_numbers(replace(w, backward=True))
    numbers = check_numbers(walk_numbers(w) + change.train_steps * step, limits)

    return JSONResponse(await api.within_budget(
        request, numbers, lambda: _answer(apply_change(w, change).tape(), have, only, frame)))


def _answer(tape, have: dict, only, frame) -> dict:
    out = pages.changed_panels(tape, have, only)
    params = {k: list(v.shape) for k, v in tape.params.items()}
    return out | {"toc": None if out["frame"] == frame else out["toc"], "params": params}


def _have(have) -> dict:
    if have is None:
        return {}
    if (not isinstance(have, dict) or len(have) > MAX_IDS
            or not all(isinstance(v, str) for v in have.values())):
        raise RequestError("have must be an object of panel id → digest", "have")
    return have


def _only(only):
    if only is None:
        return None
    if (not isinstance(only, list) or len(only) > MAX_IDS
            or not all(isinstance(v, str) for v in only)):
        raise RequestError("only must be a list of panel ids, or null", "only")
    return only

