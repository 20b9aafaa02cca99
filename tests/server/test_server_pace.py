"""A training job paused, stepped one epoch at a time, slowed, and stopped while paused."""

from __future__ import annotations

import math
import time


def _status(client, job):
    return client.json("GET", f"/api/train/{job}")[1]


def _until(client, job, test, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        s = _status(client, job)
        if test(s):
            return s
        time.sleep(0.05)
    raise AssertionError(_status(client, job))


def test_pause_step_slow_and_stop(client):
    status, s = client.json("POST", "/api/train", {"epochs": 2000})
    assert status == 202
    job = s["id"]
    status, s = client.json("POST", f"/api/train/{job}/pace", {"pause": True})
    assert status == 200 and s["paused"] is True
    _until(client, job, lambda s: s["state"] == "running")
    time.sleep(0.3)  # the epoch under way when paused may still finish
    held = _status(client, job)["epochs_done"]
    time.sleep(0.6)
    assert _status(client, job)["epochs_done"] == held  # paused: no epoch finishes
    client.json("POST", f"/api/train/{job}/pace", {"step": 1})
    s = _until(client, job, lambda s: s["epochs_done"] == held + 1 and s["paused"])
    time.sleep(0.5)
    assert _status(client, job)["epochs_done"] == held + 1  # one epoch, then held again
    status, s = client.json("POST", f"/api/train/{job}/pace", {"pause": False, "epochs_per_second": 5})
    assert status == 200 and s["epochs_per_second"] == 5 and s["paused"] is False
    start, t0 = _status(client, job)["epochs_done"], time.monotonic()
    time.sleep(1.5)
    done, elapsed = _status(client, job)["epochs_done"] - start, time.monotonic() - t0
    assert done <= 5 * elapsed + 2  # at most 5 a second (and the one under way)
    client.json("POST", f"/api/train/{job}/pace", {"pause": True})
    client.json("DELETE", f"/api/train/{job}")  # a paused job stops too
    assert _until(client, job, lambda s: s["state"] != "running")["state"] == "cancelled"
    status, answer = client.json("POST", f"/api/train/{job}/pace", {"epochs_per_second": 0})
    assert status == 422 and answer["field"] == "epochs_per_second"


def _held(client, job):
    """The epochs done once a pause has taken hold (the epoch under way may still finish)."""
    client.json("POST", f"/api/train/{job}/pace", {"pause": True})
    time.sleep(0.4)
    return _status(client, job)["epochs_done"]


def test_lr_and_epochs_changed_while_paused_apply_from_the_next_update(client):
    status, s = client.json("POST", "/api/train", {"epochs": 2000, "optimizer": "sgd", "lr": 0.01})
    assert status == 202 and s["lr"] == 0.01
    job = s["id"]
    held = _held(client, job)
    status, s = client.json("POST", f"/api/train/{job}/pace", {"lr": 0.5, "epochs": held + 3})
    assert status == 200 and s["lr"] == 0.5 and s["epochs"] == held + 3
    client.json("POST", f"/api/train/{job}/pace", {"pause": False})
    s = _until(client, job, lambda s: s["state"] != "running")
    assert s["state"] == "done" and s["epochs_done"] == held + 3  # the new count, not 2000
    u = s["update"]  # the last update, made in the last epoch, after the change
    assert u["epoch"] == held + 3
    # SGD by hand with the new η: θ′ = θ − η·v (v the velocity; g without momentum)
    v = u.get("velocity", u["g"])
    assert u["lr"] == 0.5 and math.isclose(u["theta_new"], u["theta"] - 0.5 * v, rel_tol=1e-12)
    status, answer = client.json("POST", f"/api/train/{job}/pace", {"lr": 0.1})
    assert status == 409 and answer["field"] == "job"


def test_a_learning_rate_out_of_range_is_refused_by_its_field(client):
    job = client.json("POST", "/api/train", {"epochs": 2000})[1]["id"]
    for body, field in (({"lr": 0}, "lr"), ({"lr": 11}, "lr"), ({"epochs": 0}, "epochs"),
                        ({"lr": "fast"}, "lr")):
        status, answer = client.json("POST", f"/api/train/{job}/pace", body)
        assert status in (400, 422) and answer["field"] == field, (body, answer)
    client.json("DELETE", f"/api/train/{job}")
