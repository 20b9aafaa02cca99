"""SmolLM2-135M in the web app, without its file (fast tier): the model is loaded once, in a
thread of its own, while requests are answered at once (202 with how long it has been loading,
and other walks as usual); a missing file is one line naming the pip command; the request's
fields are checked; each prompt is walked once and kept within a byte budget."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("starlette", reason="needs starlette (pip install -e '.[serve]')")

from starlette.testclient import TestClient  # noqa: E402

from handformer.errors import HandformerError, PretrainedError  # noqa: E402
from handformer.families import registry  # noqa: E402
from handformer.server import pretrained_model  # noqa: E402
from handformer.server.app import create_app  # noqa: E402
from handformer.server.limits import RequestError  # noqa: E402

NAME = "smollm2-135m"
PIP = "pip install -e '.[smollm2]'"  # the extra, as pyproject.toml names it


@pytest.fixture
def client():
    return TestClient(create_app(), base_url="http://127.0.0.1", raise_server_exceptions=False)


@pytest.fixture
def bindings():
    return registry.app_models()[NAME].pretrained_app


@pytest.fixture
def slow_load(monkeypatch, bindings):
    """The model's file taken as present and its load held until ``release`` is set."""
    release, calls = threading.Event(), []

    def load():
        calls.append(1)
        release.wait(10)
        return "family", "model"

    monkeypatch.setattr(bindings, "about", lambda name: {"missing": None, "text": "hi",
                                                         "layers": 30})
    monkeypatch.setattr(pretrained_model, "_loaders", {NAME: pretrained_model.Loader(NAME, load)})
    yield SimpleNamespace(release=release, calls=calls)
    release.set()


def walk(**fields) -> dict:
    return {"walk": {"pretrained": NAME, **fields}}


def test_a_load_in_progress_is_said_at_once_and_other_walks_go_on(client, slow_load):
    started = time.monotonic()
    first = client.post("/api/pretrained/panels", json=walk(src="when you"))
    assert first.status_code == 202
    assert first.json()["loading"] | {"seconds": None} == {
        "name": NAME, "state": "loading", "error": None, "seconds": None,
        "expected_seconds": pretrained_model.EXPECTED_SECONDS}
    again = client.post("/api/pretrained/panels", json=walk())
    assert again.status_code == 202 and again.json()["loading"]["seconds"] >= 0
    tutorial = client.post("/api/walk", json={})  # the encoder-decoder's walk, meanwhile
    assert tutorial.status_code == 200
    assert time.monotonic() - started < 5  # nobody waited on the load
    assert client.get("/api/pretrained").json()["models"][0]["state"] == "loading"
    assert slow_load.calls == [1]  # one load, however many requests
    slow_load.release.set()
    loader = pretrained_model._loaders[NAME]
    deadline = time.monotonic() + 10
    while loader.ready() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert loader.ready() == ("family", "model") and slow_load.calls == [1]


def test_a_failed_load_is_said_once_then_tried_again():
    outcomes = iter([HandformerError("the file is truncated"), ("family", "model")])

    def load():
        outcome = next(outcomes)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    loader = pretrained_model.Loader(NAME, load)
    assert loader.ready() is None
    _wait_for(lambda: loader.state == "failed")
    with pytest.raises(RequestError, match=f"^{NAME} could not be loaded: the file is truncated$"):
        loader.ready()
    assert loader.ready() is None  # loading again
    _wait_for(lambda: loader.state == "ready")
    assert loader.ready() == ("family", "model")


def _wait_for(condition) -> None:
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_without_its_file_the_choice_and_the_walk_name_the_pip_command(client, monkeypatch):
    from handformer.families.gpt import gguf_model

    def missing():
        raise PretrainedError(f"{NAME} needs its model file: {gguf_model.INSTALL}")

    monkeypatch.setattr(gguf_model, "locate", missing)
    monkeypatch.setattr(pretrained_model, "_loaders", {})
    listed = client.get("/api/pretrained").json()["models"]
    assert [m["name"] for m in listed] == [NAME]
    assert PIP in listed[0]["missing"] and "\n" not in listed[0]["missing"]
    bundle = client.get("/static/ui_text.json").json()
    assert bundle["pretrained"][0]["missing"] == listed[0]["missing"]
    answer = client.post("/api/pretrained/panels", json=walk())
    assert answer.status_code == 422
    assert answer.json()["field"] == "family" and PIP in answer.json()["error"]
    assert pretrained_model._loaders[NAME].state == "idle"  # nothing was loaded


@pytest.mark.parametrize(("body", "status", "field"), [
    ({}, 422, "walk"),
    ({"walk": {"src": "x"}}, 422, "pretrained"),
    ({"walk": {"pretrained": "gpt-5"}}, 422, "pretrained"),
    ({"walk": {"pretrained": NAME, "tgt": "x"}}, 422, "walk.tgt"),
    (walk(blocks_shown=[30]), 422, "blocks_shown"),
    (walk(blocks_shown=["1"]), 422, "blocks_shown"),
    (walk(blocks_shown=[True]), 422, "blocks_shown"),
    (walk(blocks_shown=[]), 422, "blocks_shown"),
    (walk(blocks_shown="0,1"), 400, "walk.blocks_shown"),
    (walk(src="word " * 200), 422, "src"),
    (walk() | {"only": "x"}, 400, "only"),
])
def test_a_wrong_field_is_one_line_naming_it(client, slow_load, body, status, field):
    answer = client.post("/api/pretrained/panels", json=body)
    assert (answer.status_code, answer.json()["field"]) == (status, field), answer.json()
    assert "\n" not in answer.json()["error"] and "Traceback" not in answer.text
    assert slow_load.calls == []  # refused before any load


def fake_walk(sizes: dict, walked: list):
    """pipeline.finish standing in: a tape whose steps own ``sizes[text]`` float64 numbers."""
    def finish(family, model, options):
        walked.append(options["src"])
        time.sleep(0.05)
        owned = np.zeros(sizes[options["src"]])
        steps = [SimpleNamespace(value=owned), SimpleNamespace(value=owned[:2])]
        return SimpleNamespace(tape=SimpleNamespace(steps=steps, params={}))
    return finish


def test_each_prompt_is_walked_once_and_the_oldest_dropped_past_the_budget(monkeypatch):
    walked: list[str] = []
    monkeypatch.setattr(pretrained_model.pipeline, "finish",
                        fake_walk({"a": 100, "b": 100, "c": 100}, walked))
    tapes = pretrained_model.Tapes(capacity=250 * 8)  # two walks of 100 float64 numbers
    threads = [threading.Thread(target=tapes.full, args=(None, None, "a", 30)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert walked == ["a"]  # four requests at once, one walk
    tapes.full(None, None, "b", 30)
    assert tapes.size() == 200 * 8  # a view (owned[:2]) costs nothing
    tapes.full(None, None, "a", 30)  # used again: "b" is now the oldest
    tapes.full(None, None, "c", 30)
    assert walked == ["a", "b", "c"] and tapes.size() == 200 * 8
    tapes.full(None, None, "a", 30)
    assert walked == ["a", "b", "c"]  # kept
    tapes.full(None, None, "b", 30)
    assert walked == ["a", "b", "c", "b"]  # dropped, walked again


def test_the_weights_on_a_tape_are_not_counted_as_its_own():
    weight = np.zeros(1000)
    tape = SimpleNamespace(params={"w": weight}, steps=[
        SimpleNamespace(value=weight), SimpleNamespace(value=weight.T),
        SimpleNamespace(value=np.zeros((3, 4), dtype=np.float32))])
    assert pretrained_model.kept_bytes(tape) == 3 * 4 * 4
