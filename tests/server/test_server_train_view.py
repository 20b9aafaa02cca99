"""What training did, as the page shows it: the update that ended a stepped epoch (checked by
hand), the pair under random weights beside the trained ones, the loss change of a comparison,
and what a paused job costs (it keeps its slot, but not forever)."""

from __future__ import annotations

import html
import math
import re
import time

import pytest

import handformer
from handformer.server.limits import Limits

from .conftest import Client, Server


def _finished(client, job: str, timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = client.json("GET", f"/api/train/{job}")[1]
        if status["state"] != "running":
            return status
        time.sleep(0.05)
    raise AssertionError("the job did not end")


def test_plain_sgds_first_update_is_theta_minus_eta_g(client):
    job = client.json("POST", "/api/train", {"epochs": 1, "optimizer": "sgd", "lr": 0.5})[1]["id"]
    u = _finished(client, job)["update"]
    assert (u["optimizer"], u["epoch"], u["batch"], u["lr"]) == ("sgd", 1, 1, 0.5)
    assert u["velocity"] == u["g"]  # momentum's velocity starts as the first gradient
    assert u["theta_new"] == pytest.approx(u["theta"] - 0.5 * u["g"], abs=1e-12)
    assert abs(u["g"]) > 0


def test_adams_first_update_moves_a_weight_by_eta_against_its_gradients_sign(client):
    job = client.json("POST", "/api/train", {"epochs": 1, "lr": 0.01})[1]["id"]
    u = _finished(client, job)["update"]
    # bias-corrected at t = 1: m̂ = g, v̂ = g², so θ′ = θ − η·g / (|g| + ε) ≈ θ − η·sign(g)
    assert (u["optimizer"], u["t"]) == ("adam", 1)
    assert u["m_hat"] == pytest.approx(u["g"], rel=1e-12)
    assert u["v_hat"] == pytest.approx(u["g"] ** 2, rel=1e-12)
    assert u["theta_new"] == pytest.approx(u["theta"] - 0.01 * math.copysign(1, u["g"]), abs=1e-9)


def test_random_weights_beside_trained_ones_on_the_walks_pair(client):
    job = client.json("POST", "/api/train", {"epochs": 200})[1]["id"]
    assert _finished(client, job)["state"] == "done"
    pair = {"src": "When you play the game of thrones", "tgt": "you win or you die."}
    status, b = client.json("POST", f"/api/train/{job}/beside", pair)
    assert status == 200 and b["epochs"] == 200
    assert b["targets"] == ["you", "win", "or", "you", "die", "<end>"]
    for side in ("untrained", "trained"):
        p = b[side]["p_target"]
        assert len(p) == 6 and all(0 < x < 1 for x in p)
        assert b[side]["loss"] == pytest.approx(sum(-math.log(x) for x in p) / 6, rel=1e-12)
    assert b["trained"]["picked"] == b["targets"]  # 200 epochs learn the three pairs by heart
    assert b["untrained"]["picked"] != b["targets"]
    assert b["trained"]["loss"] < b["untrained"]["loss"] / 5


def test_the_comparison_leads_with_the_loss_change(client):
    status, answer = client.json("POST", "/api/compare", {"a": {}, "train_steps": 1})
    assert status == 200
    tape = handformer.walk(backward=True)  # the walk's own update: SGD, η 0.1, the same pair
    before, after = float(tape["loss"]), tape.meta["update"]["loss_after"]
    assert answer["loss"]["a"] == pytest.approx(before, rel=1e-12)
    assert answer["loss"]["b"] == pytest.approx(after, rel=1e-9)
    assert answer["loss"]["delta"] == pytest.approx(after - before, rel=1e-9)


@pytest.fixture(scope="module")
def strict():
    s = Server(Limits(max_pause_seconds=1.0, max_jobs_per_session=1))
    yield s
    s.stop()


def test_a_paused_job_keeps_its_slot_then_is_stopped_with_its_model(strict):
    client = Client(strict.url)
    job = client.json("POST", "/api/train", {"epochs": 2000})[1]["id"]
    client.json("POST", f"/api/train/{job}/pace", {"epochs_per_second": 5})
    while client.json("GET", f"/api/train/{job}")[1]["epochs_done"] < 1:
        time.sleep(0.02)
    paused = client.json("POST", f"/api/train/{job}/pace", {"pause": True})[1]
    assert paused["paused"] and paused["state"] == "running"
    status, answer = client.json("POST", "/api/train", {"epochs": 5})
    assert status == 429  # paused, it still holds the session's one running slot
    time.sleep(0.3)
    held = client.json("GET", f"/api/train/{job}")[1]
    assert held["state"] == "running" and held["paused"]
    ended = _finished(client, job, timeout=10)
    assert ended["state"] == "cancelled" and ended["paused_out"] == 1.0
    assert ended["model"] and ended["epochs_done"] >= 1
    status, said = client.json("POST", "/api/translate", {"job": job, "sentence": "the game",
                                                          "explain": False})
    assert status == 200 and said["tokens"]  # its model so far is kept
    status, answer = client.json("POST", "/api/train", {"epochs": 5})
    assert status == 202  # the slot is free again


def test_the_walkthrough_of_the_trained_model(client):
    """With "job", the changed panels are the trained model's on the walk's sentences: trained
    to 100% on the tutorial's pairs, its predicted words are the target's (random weights' not);
    with "train_steps" too, the trained model after that many more steps."""
    status, s = client.json("POST", "/api/train", {"epochs": 200})
    assert status == 202
    job = s["id"]
    deadline = time.monotonic() + 120
    while client.json("GET", f"/api/train/{job}")[1]["state"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    walk = {"src": "when you play the game of thrones", "tgt": "you win or you die"}
    picked = {}
    for name, extra in (("random", {}), ("trained", {"job": job})):
        status, out = client.json("POST", "/api/panels/changed", {"walk": walk, **extra})
        assert status == 200, out
        picked[name] = _predicted(out["panels"]["prediction"])
    assert picked["trained"] == ["you", "win", "or", "you", "die", "<end>"], picked
    assert picked["random"] != picked["trained"]
    status, answer = client.json("POST", "/api/panels/changed", {"walk": walk, "job": "nope"})
    assert status == 404 and answer["field"] == "job"
    # one more SGD step from the trained weights (as compare's run b with "job" takes it):
    # the weights' panels change, the sentence's tokens and the positions do not
    status, stepped = client.json("POST", "/api/panels/changed",
                                  {"walk": walk, "job": job, "train_steps": 1})
    assert status == 200, stepped
    status, plain = client.json("POST", "/api/panels/changed", {"walk": walk, "job": job})
    same = {k for k in plain["order"] if plain["digests"][k] == stepped["digests"][k]}
    assert {"encoding", "src_embed.pos", "tgt.ids"} <= same and "src_embed.tok" not in same


def _predicted(panel_html: str) -> list[str]:
    """The words the prediction panel's English says the model picks, in order."""
    said = re.search(r"the model says “([^”]*)”", html.unescape(panel_html))
    return said[1].split() if said else []
