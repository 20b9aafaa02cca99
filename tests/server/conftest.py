"""One server per test process: uvicorn on a free 127.0.0.1 port, in a thread. Each test talks to
it through clients of its own (a cookie jar each: a session each), so tests do not see each
other's sessions, jobs or models; a test that needs other limits starts a Server of its own."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest

uvicorn = pytest.importorskip("uvicorn", reason="needs uvicorn (pip install -e '.[serve]')")
pytest.importorskip("starlette", reason="needs starlette (pip install -e '.[serve]')")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A running app on http://127.0.0.1:port, stopped by stop()."""

    def __init__(self, limits=None):
        from handformer.server.app import create_app

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(create_app(limits), host="127.0.0.1", port=self.port,
                                log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="session")
def server():
    s = Server()
    yield s
    s.stop()


class Client:
    """One browser-like client: urllib with its own cookie jar (its own session)."""

    def __init__(self, base: str):
        import http.cookiejar

        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def request(self, method: str, path: str, body=None, raw: bytes | None = None,
                content_type: str = "application/json"):
        """(status, headers, body bytes) whatever the status."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", content_type)
        try:
            with self.opener.open(req, timeout=60) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as err:
            return err.code, dict(err.headers), err.read()

    def json(self, method: str, path: str, body=None, **kw):
        status, _, data = self.request(method, path, body, **kw)
        return status, json.loads(data)


@pytest.fixture(scope="session")
def app(server):
    """The browser tests' server: the same one."""
    return server


@pytest.fixture
def client(server):
    return Client(server.url)
