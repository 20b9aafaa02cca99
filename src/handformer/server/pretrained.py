"""GET /api/pretrained and POST /api/pretrained/panels: a known model (SmolLM2-135M) walked in
the web app, its panels sent as the page scrolls to them.

The body of /api/pretrained/panels is {"walk": {"pretrained": its name, "src": the prompt
(null: the model's example), "blocks_shown": block numbers shown in full (null: [0])}, "have",
"only", "frame"} as /api/panels/changed takes them, and so is the answer ({"order", "digests",
"panels", "frame", "toc", "params"}), with "pretrained": {"name", "text", "tokens", "layers",
"shown"}. The other blocks are one panel of summaries (each block's logit lens); a block the
page opens is one more number in "blocks_shown", its panels sent when in view. While the model
is being read the answer is 202 {"loading": its status} at once (the page says so and asks
again); a model whose file is not installed is 422, naming the pip command that adds it.
"""

from __future__ import annotations

from types import SimpleNamespace

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..families import registry
from . import api, fields, pages
from .changed import _have, _only
from .fields import LIST, OBJECT, TEXT
from .limits import RequestError, check_sentence
from .pretrained_model import MAX_PROMPT_TOKENS, about, loader

WALK = {"pretrained": TEXT, "src": TEXT.or_null(), "blocks_shown": LIST.or_null()}
PANELS = {"walk": OBJECT, "have": OBJECT.or_null(), "only": LIST.or_null(),
          "frame": TEXT.or_null()}
NUMBERS_PER_TOKEN = 650_000  # a walk of every block, measured: 5.5 M numbers for 9 tokens


async def models(request: Request) -> Response:
    """Every known model the app offers, with its file's presence and its loading state."""
    return JSONResponse({"models": about()})


@api.handles_errors
async def panels(request: Request) -> Response:
    a = asked(await api.read_json(request), api.settings(request)[0])
    ready = a.loader.ready()
    if ready is None:
        return JSONResponse({"loading": a.loader.status()}, status_code=202)
    family, model = ready
    tokens = await run_in_threadpool(a.bindings.prompt_tokens, model, a.text)
    if tokens > MAX_PROMPT_TOKENS:
        raise RequestError(f"the prompt is {tokens} tokens; this server walks {a.name} on at "
                           f"most {MAX_PROMPT_TOKENS}", "src")
    numbers = min(tokens * NUMBERS_PER_TOKEN, request.app.state.budget.capacity // 2)

    def work() -> dict:
        full = a.loader.tapes.full(family, model, a.text, a.layers)
        out = pages.changed_panels(a.bindings.view(full, a.shown), a.have, a.only)
        return out | {"toc": None if out["frame"] == a.frame else out["toc"], "params": {},
                      "pretrained": {"name": a.name, "text": a.text, "tokens": tokens,
                                     "layers": a.layers, "shown": a.shown}}

    return JSONResponse(await api.within_budget(request, numbers, work))


def asked(body, limits) -> SimpleNamespace:
    """The request, checked before the model is touched: its model (installed), prompt, blocks
    and the panels the page holds and wants."""
    body = fields.read(body, PANELS)
    walk = fields.read(body.get("walk"), WALK, "walk.")
    have, only = _have(body.get("have")), _only(body.get("only"))
    name = walk.get("pretrained")
    if name is None:
        raise RequestError("walk.pretrained must name a known model", "pretrained")
    model_loader = loader(name)
    bindings = registry.app_models()[name].pretrained_app
    info = bindings.about(name)
    if info["missing"]:
        raise RequestError(info["missing"], "family")
    src = walk.get("src")
    text = info["text"] if src is None else check_sentence(src, "src", limits)
    return SimpleNamespace(name=name, loader=model_loader, bindings=bindings, text=text,
                           layers=info["layers"], shown=blocks_shown(walk.get("blocks_shown"),
                                                                     info["layers"]),
                           have=have, only=only, frame=body.get("frame"))


def blocks_shown(given, layers: int) -> list[int]:
    """The blocks shown in full: whole numbers from 0 to layers − 1 ([0] when not given)."""
    if given is None:
        return [0]
    if not given or len(given) > layers or not all(
            isinstance(b, int) and not isinstance(b, bool) and 0 <= b < layers for b in given):
        raise RequestError(f"blocks_shown must list block numbers from 0 to {layers - 1}, "
                           f"got {str(given)[:60]}", "blocks_shown")
    return sorted(set(given))
