"""The ASGI app: routes, static page assets, and one guard in front of everything.

The guard answers before any handler runs: a Host that is not this server's (DNS rebinding)
is refused, a body above the limit is 413 without being read further, a job id in the path
that is not one this server makes is 404 before routing, each browser gets a session cookie,
and every response carries a Content-Security-Policy that allows no inline script and nothing
from another origin. Every error is JSON, a route that does not exist too (the page parses
every answer).
"""

from __future__ import annotations

import json
import re
from http.cookies import SimpleCookie
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from . import api, beside, changed, comparison, pace, pages, pairs, pretrained, quiz, ui_text
from .budget import Budget
from .jobs import Jobs
from .limits import Limits
from .sessions import COOKIE, Sessions

STATIC = Path(__file__).parent / "static"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'none'; frame-ancestors 'none'")
HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]
LOOPBACK = {"127.0.0.1", "localhost", "[::1]", "::1"}
JOB_PATH = re.compile(r"/api/train/([^/]*)(/[^/]*)?/?")
JOB_ID = re.compile(r"[A-Za-z0-9_-]{12}")  # secrets.token_urlsafe(9), as jobs.Job makes them


def create_app(limits: Limits | None = None, host: str = "127.0.0.1") -> Guard:
    limits = limits or Limits()
    routes = [
        Route("/", lambda r: FileResponse(STATIC / "index.html")),
        Route("/favicon.ico", lambda r: Response(status_code=204)),
        Route("/static/panels.css", lambda r: Response(pages.stylesheet(), media_type="text/css")),
        Route("/static/nav.js", lambda r: Response(pages.nav_script(),
                                                   media_type="text/javascript")),
        Route("/static/ui_text.json", lambda r: Response(json.dumps(ui_text.bundle(limits),
              ensure_ascii=False), media_type="application/json")),
        Mount("/static", StaticFiles(directory=STATIC)),
        Route("/api/walk", api.walk, methods=["POST"]),
        Route("/api/panels", api.panels, methods=["POST"]),
        Route("/api/panels/changed", changed.changed, methods=["POST"]),
        Route("/api/compare", comparison.compare, methods=["POST"]),
        Route("/api/train", api.train_start, methods=["POST"]),
        Route("/api/train", api.train_list, methods=["GET"]),
        Route("/api/train/{job}", api.train_status, methods=["GET"]),
        Route("/api/train/{job}/events", api.train_events, methods=["GET"]),
        Route("/api/train/{job}", api.train_cancel, methods=["DELETE"]),
        Route("/api/train/{job}/cancel", api.train_cancel, methods=["POST"]),
        Route("/api/train/{job}/pace", pace.pace, methods=["POST"]),
        Route("/api/train/{job}/beside", beside.beside, methods=["POST"]),
        Route("/api/pairs", pairs.pairs, methods=["POST"]),
        Route("/api/translate", api.translate, methods=["POST"]),
        Route("/api/quiz", quiz.start, methods=["POST"]),
        Route("/api/quiz/answer", quiz.answer, methods=["POST"]),
        Route("/api/quiz/score", quiz.score, methods=["GET"]),
        Route("/api/pretrained", pretrained.models, methods=["GET"]),
        Route("/api/pretrained/panels", pretrained.panels, methods=["POST"]),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(GZipMiddleware, minimum_size=1000)],
                    exception_handlers={HTTPException: _json_error})
    app.state.limits, app.state.jobs = limits, Jobs(limits)
    app.state.budget = Budget(limits.max_server_numbers, limits.budget_wait_seconds)
    hosts = None if host in ("0.0.0.0", "::", "") else LOOPBACK | {host}
    return Guard(app, limits, Sessions(limits.max_sessions), hosts)


class Guard:
    """ASGI middleware: allowed Host, bounded body, session cookie, security headers."""

    def __init__(self, app, limits: Limits, sessions: Sessions, hosts: set | None):
        self.app, self.limits, self.sessions, self.hosts = app, limits, sessions, hosts
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if self.hosts is not None and _hostname(headers.get("host", "")) not in self.hosts:
            return await _reply(send, 403, "this server answers only to its own address", [])
        declared = headers.get("content-length", "0")
        too_long = not declared.isdigit() or int(declared) > self.limits.max_body
        body = None if too_long else await _read_body(receive, self.limits.max_body)
        if body is None:
            return await _reply(send, 413, f"the request body is larger than this server's "
                                           f"limit of {self.limits.max_body:,} bytes", [])
        if _bad_job_id(scope["path"]):
            return await _reply(send, 404, "no such training job in this session", [],
                                "job")
        session, created = self.sessions.find(_cookie(headers.get("cookie", "")))
        scope.setdefault("state", {})["session"] = session
        extra = list(HEADERS)
        if created:
            extra.append((b"set-cookie", f"{COOKIE}={session.id}; Path=/; HttpOnly; "
                                         f"SameSite=Strict".encode()))
        await self.app(scope, _replay(body, receive), _with_headers(send, extra))


def _bad_job_id(path: str) -> bool:
    """A path under /api/train/ whose job id is not of the form this server makes."""
    match = JOB_PATH.fullmatch(path)
    if path.startswith("/api/train/") and not match:
        return True  # /api/train/../../api/walk, once decoded
    return bool(match) and not JOB_ID.fullmatch(match[1])


async def _json_error(request, exc: HTTPException) -> JSONResponse:
    """Starlette's own errors (no such route: 404, a method it does not take: 405) as JSON."""
    return JSONResponse({"error": exc.detail, "field": None}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


def _hostname(host: str) -> str:
    if host.startswith("["):
        return host.split("]")[0] + "]"
    return host.rsplit(":", 1)[0] if ":" in host else host


def _cookie(header: str) -> str | None:
    jar = SimpleCookie()
    try:
        jar.load(header)
    except Exception:  # noqa: BLE001  (a garbled cookie is a missing cookie)
        return None
    return jar[COOKIE].value if COOKIE in jar else None


async def _read_body(receive, limit: int) -> bytes | None:
    """The whole body, or None as soon as it grows past ``limit`` bytes."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body"):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive):
    """The body already read, then the real channel (which reports a client disconnecting)."""
    sent = False

    async def replay():
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def _with_headers(send, extra: list):
    async def wrapped(message):
        if message["type"] == "http.response.start":
            message = dict(message, headers=list(message.get("headers", [])) + extra)
        await send(message)

    return wrapped


async def _reply(send, status: int, message: str, extra: list,
                 field: str | None = None) -> None:
    body = json.dumps({"error": message, "field": field}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *HEADERS, *extra]})
    await send({"type": "http.response.body", "body": body})
