"""SmolLM2-135M walked through the web app's endpoints, in-process (Starlette's TestClient): the
load reported, then block 0 in full, the other blocks as one summary panel, the top-10 (the
issue's next token, "'re", p ≈ 0.19, measured with transformers), both languages; the panels
in view sent alone; a block opened without walking again, its panels those of the CLI's
`--blocks-shown 0,1`."""

from __future__ import annotations

import re
import time

import pytest

from .smollm2_file import gguf_path

pytest.importorskip("starlette", reason="needs starlette (pip install -e '.[serve]')")

from starlette.testclient import TestClient  # noqa: E402

from handformer.server.app import create_app  # noqa: E402

# The 98 MB model file is read (seconds) by every module here: make test, not make check.
pytestmark = pytest.mark.slow

NAME, TEXT = "smollm2-135m", "when you play the game of thrones you"
BLOCK_0 = ["decoder.0.ln1.out", "decoder.0.self_attn.head.0.scores", "decoder.0.ffn.resid"]


@pytest.fixture(scope="module")
def client():
    gguf_path()
    return TestClient(create_app(), base_url="http://127.0.0.1")


def ask(client, blocks=None, only=None, have=None) -> dict:
    """The walk's answer, once the model is loaded (202 meanwhile, saying so)."""
    body = {"walk": {"pretrained": NAME, "src": TEXT, "blocks_shown": blocks},
            "have": have or {}, "only": only}
    deadline = time.monotonic() + 300
    while True:
        answer = client.post("/api/pretrained/panels", json=body)
        if answer.status_code != 202:
            assert answer.status_code == 200, answer.text
            return answer.json()
        assert answer.json()["loading"]["state"] == "loading"
        assert time.monotonic() < deadline, "the model did not load in 5 minutes"
        time.sleep(0.5)


@pytest.fixture(scope="module")
def first(client):
    return ask(client)


def test_block_0_in_full_the_others_one_summary_panel(first):
    order = first["order"]
    assert all(name in order for name in BLOCK_0)
    assert [i for i in order if i.endswith(".elided")] == ["decoder.1-29.elided"]
    assert not [i for i in order if re.match(r"decoder\.([1-9]|[12]\d)\.", i)]
    assert first["pretrained"] == {"name": NAME, "text": TEXT, "tokens": 9, "layers": 30,
                                   "shown": [0]}
    lines = re.findall(r"block (\d+): ‖x‖", first["panels"]["decoder.1-29.elided"])
    assert [int(b) for b in lines] == list(range(1, 30))


def test_the_top_10_in_both_languages(first):
    html = first["panels"]["generator.logits"]
    ranks = re.findall(r"(\d+)\. “[^”]*” \(id \d+", html)
    assert ranks == [str(k) for k in range(1, 11)]
    assert "1. “&#39;re” (id 2316)" in html or "1. “'re” (id 2316)" in html
    assert re.search(r"p\s=\s0\.19\d", html.split("2. “")[0])  # a no-break space each side
    assert "最可能的下一个词元是“" in html.replace("<wbr>", "")  # breaks between Chinese words


def test_the_panels_asked_for_come_alone_and_small(client, first):
    only = first["order"][:3]
    some = ask(client, only=only)
    assert sorted(some["panels"]) == sorted(only)
    assert len(str(some["panels"])) < len(str(first["panels"])) / 5


def test_opening_a_block_walks_nothing_again_and_is_the_clis_walk(client, first, monkeypatch):
    from handformer import pipeline
    from handformer.server import pages

    walks, finish = [], pipeline.finish
    monkeypatch.setattr(pipeline, "finish", lambda *a, **k: walks.append(1) or finish(*a, **k))
    opened = ask(client, blocks=[0, 1], have=first["digests"])
    assert walks == []  # a view of the walk kept for this prompt
    assert "decoder.1.ln1.out" in opened["order"] and "decoder.2-29.elided" in opened["order"]
    assert "decoder.1.ln1.out" in opened["panels"]
    assert "decoder.0.ln1.out" not in opened["panels"]  # held already, unchanged
    monkeypatch.undo()
    cli = pipeline.run({"pretrained": NAME, "src": TEXT, "blocks_shown": "0,1"}).tape
    theirs = pages.changed_panels(cli, {}, None)
    assert opened["order"] == theirs["order"]
    assert opened["digests"] == theirs["digests"]


def test_the_model_is_loaded_once_per_process(client, first):
    assert client.get("/api/pretrained").json()["models"][0]["state"] == "ready"
    again = TestClient(create_app(), base_url="http://127.0.0.1")  # another app, same process
    answer = again.post("/api/pretrained/panels", json={"walk": {"pretrained": NAME,
                                                                 "src": TEXT}})
    assert answer.status_code == 200
