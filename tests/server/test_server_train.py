"""Training jobs: progress, 100 % on the tutorial's pairs, translation, cancel, bounds, and
sessions that never see each other's jobs or models."""

from __future__ import annotations

import threading
import time

import pytest

from handformer.families.transformer.config import preset
from handformer.train import loop
from handformer.train.data import pairs_from_lines

from .conftest import Client, Server

STORM = "the storm comes, we wait\nthe rain falls, we stay in\n"


def wait_done(client: Client, job: str, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, s = client.json("GET", f"/api/train/{job}")
        assert status == 200
        if s["state"] != "running":
            return s
        time.sleep(0.05)
    raise AssertionError("the job did not finish")


def test_tutorial_pairs_train_to_100_percent_and_translate(client):
    status, s = client.json("POST", "/api/train", {"epochs": 200})
    assert status == 202 and s["state"] == "running" and s["epochs"] == 200
    s = wait_done(client, s["id"])
    assert s["state"] == "done" and s["epochs_done"] == 200 and len(s["losses"]) == 200
    assert s["final"]["accuracy"] == 1.0 and s["final"]["exact"] == 1.0
    assert s["losses"][-1] < s["losses"][0] / 100
    status, t = client.json("POST", "/api/translate", {
        "job": s["id"], "sentence": "when you play the game of thrones"})
    assert status == 200, t
    assert t["text"] == "you win or you die" and t["finished"] is True
    assert [c["token"] for step in t["steps"] for c in step["chosen"]] == [
        "you", "win", "or", "you", "die", "<end>"]
    assert t["steps"][0]["prefixes"] == [["<start>"]]
    assert "section" in t["panels"]
    status, b = client.json("POST", "/api/translate", {
        "job": s["id"], "sentence": "when you play the game of thrones", "beam": 3,
        "explain": False})
    assert status == 200 and b["text"] == "you win or you die" and "panels" not in b


def test_event_stream_sends_every_epoch_then_ends(client):
    import json

    status, s = client.json("POST", "/api/train", {"epochs": 40})
    assert status == 202
    events = []
    with client.opener.open(f"{client.base}/api/train/{s['id']}/events", timeout=60) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        for line in r:
            if line.startswith(b"data: "):
                events.append(json.loads(line[6:]))
    final = client.json("GET", f"/api/train/{s['id']}")[1]
    assert events[-1]["state"] == "done" and final["state"] == "done"
    assert [e["from"] for e in events] == [0] + [
        sum(len(x["losses"]) for x in events[:i]) for i in range(1, len(events))]
    assert [v for e in events for v in e["losses"]] == final["losses"]
    # 40 tutorial epochs take well under the stream's 0.2 s poll: still one line each
    assert [e["epochs_done"] for e in events] == [*range(1, 41), 40]
    assert [len(e["losses"]) for e in events] == [1] * 40 + [0]
    assert {e["state"] for e in events[:-1]} == {"running"}


def test_cancel_stops_a_job_early(client):
    status, s = client.json("POST", "/api/train", {"epochs": 2000, "preset": "small"})
    assert status == 202
    time.sleep(0.3)
    status, _ = client.json("DELETE", f"/api/train/{s['id']}")
    assert status == 200
    s = wait_done(client, s["id"], 30)
    assert s["state"] == "cancelled" and s["epochs_done"] < 2000


def test_sessions_do_not_see_each_others_jobs(server):
    alice, bob = Client(server.url), Client(server.url)
    status, s = alice.json("POST", "/api/train", {"epochs": 5})
    assert status == 202
    assert bob.json("GET", f"/api/train/{s['id']}")[0] == 404
    assert bob.json("DELETE", f"/api/train/{s['id']}")[0] == 404
    assert bob.json("POST", "/api/translate", {"job": s["id"], "sentence": "i drink"})[0] == 404
    assert bob.json("GET", "/api/train")[1]["jobs"] == []
    wait_done(alice, s["id"])
    assert [j["id"] for j in alice.json("GET", "/api/train")[1]["jobs"]] == [s["id"]]


def direct_losses(corpus: str | None, epochs: int, seed: int) -> list[float]:
    """The same run straight through the engine (no server): what each session must see."""
    from handformer.train.data import default_pairs

    pairs = default_pairs() if corpus is None else pairs_from_lines(corpus.splitlines())
    run = loop.start(preset("tutorial", seed=seed), pairs, loop.Options(epochs=epochs))
    loop.fit(run)
    return [h["loss"] for h in run.history]


def test_two_sessions_training_at_once_do_not_mix(server):
    bodies = [{"epochs": 60, "config": {"seed": 1}},
              {"epochs": 60, "config": {"seed": 2}, "corpus": STORM}]
    clients, jobs = [Client(server.url), Client(server.url)], [None, None]

    def start(i):
        status, s = clients[i].json("POST", "/api/train", bodies[i])
        assert status == 202
        jobs[i] = s["id"]

    threads = [threading.Thread(target=start, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results = [wait_done(clients[i], jobs[i]) for i in (0, 1)]
    assert results[0]["losses"] == direct_losses(None, 60, 1)
    assert results[1]["losses"] == direct_losses(STORM, 60, 2)
    status, t = clients[1].json("POST", "/api/translate", {"job": jobs[1],
                                                            "sentence": "the storm comes"})
    assert status == 200 and t["text"] == "we wait"
    status, err = clients[0].json("POST", "/api/translate", {"job": jobs[0],
                                                             "sentence": "the storm comes"})
    assert status == 422 and "'comes'" in err["error"]  # A's model never saw B's words


@pytest.fixture
def small_server():
    from handformer.server.limits import Limits

    s = Server(Limits(max_models=1, max_jobs_per_session=1))
    yield s
    s.stop()


def test_models_are_dropped_least_recently_used_and_jobs_are_bounded(small_server):
    c = Client(small_server.url)
    first = c.json("POST", "/api/train", {"epochs": 2000, "preset": "small"})[1]["id"]
    status, err = c.json("POST", "/api/train", {"epochs": 5})
    assert status == 429 and "limit" in err["error"]
    c.json("POST", f"/api/train/{first}/cancel")
    assert wait_done(c, first, 30)["state"] == "cancelled"
    second = c.json("POST", "/api/train", {"epochs": 5})[1]["id"]
    wait_done(c, second)
    status, err = c.json("POST", "/api/translate", {"job": first, "sentence": "i drink"})
    assert status == 409 and "dropped" in err["error"]
    assert c.json("POST", "/api/translate", {"job": second, "sentence": "i drink"})[0] == 200
