"""`/api/train/{id}/pace` bounds its rate (issue 45, item 6): 1e-9 epochs per second kept a job
asleep for 31 years holding a training slot, 1e-300 answered a raw OverflowError."""

from __future__ import annotations

import threading
import time

import pytest

pytest.importorskip("starlette", reason="needs starlette (pip install 'handformer[serve]')")

from starlette.testclient import TestClient  # noqa: E402

from handformer.server.app import create_app  # noqa: E402
from handformer.server.pacing import Pace  # noqa: E402


@pytest.fixture(scope="module")
def client():
    c = TestClient(create_app(), base_url="http://127.0.0.1", raise_server_exceptions=False)
    c.job = c.post("/api/train", json={"epochs": 2000}).json()["id"]
    c.post(f"/api/train/{c.job}/pace", json={"pause": True})
    yield c
    c.post(f"/api/train/{c.job}/cancel")


@pytest.mark.parametrize("rate", [1e-9, 1e-300, 5e-324, 0.0099, 0, -1, 1000.5, 1e308])
def test_a_rate_outside_its_range_is_422_naming_the_range(client, rate):
    answer = client.post(f"/api/train/{client.job}/pace", json={"epochs_per_second": rate})
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["field"] == "epochs_per_second"
    assert "from 0.01 to 1000" in body["error"]


@pytest.mark.parametrize("rate", [0.01, 1, 1000, None])
def test_a_rate_inside_its_range_is_taken(client, rate):
    answer = client.post(f"/api/train/{client.job}/pace", json={"epochs_per_second": rate})
    assert answer.status_code == 200 and answer.json()["epochs_per_second"] == rate


def test_the_slowest_rate_waits_at_most_the_pause_limit():
    """1 / 0.01 = 100 s per epoch, but a job may not hold its slot past the pause limit:
    with a limit of 0.3 s the wait after an epoch ends after about 0.3 s."""
    pace, cancel = Pace(), threading.Event()
    pace.per_second = 0.01
    start = time.monotonic()
    pace.after_epoch(cancel, limit=0.3)
    assert 0.25 <= time.monotonic() - start < 2


def test_a_faster_rate_set_while_it_waits_takes_effect_at_once():
    pace, cancel = Pace(), threading.Event()
    pace.per_second = 0.01  # 100 s
    threading.Timer(0.2, lambda: setattr(pace, "per_second", 1000.0)).start()
    start = time.monotonic()
    pace.after_epoch(cancel)
    assert time.monotonic() - start < 2


def test_a_stop_ends_the_wait():
    pace, cancel = Pace(), threading.Event()
    pace.per_second = 0.01
    threading.Timer(0.2, cancel.set).start()
    start = time.monotonic()
    pace.after_epoch(cancel)
    assert time.monotonic() - start < 2
