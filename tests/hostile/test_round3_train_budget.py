"""Training jobs inside the server's memory budget (issue 45, item 1): priced per step before
anything is allocated, refused 422 above the step limit naming what would fit, each step held
in the same budget as walks, and a MemoryError ending the job in one line."""

from __future__ import annotations

import re
import threading
import time
import tracemalloc

import pytest

pytest.importorskip("starlette", reason="needs starlette (pip install 'handformer[serve]')")

from starlette.testclient import TestClient  # noqa: E402

from handformer.server.app import create_app  # noqa: E402
from handformer.server.budget import Budget  # noqa: E402
from handformer.server.limits import Limits, RequestError  # noqa: E402


def distinct_pairs(count: int, words: int) -> str:
    """``count`` lines of ``words`` + ``words`` distinct words (a vocabulary of 2·count·words)."""
    numbers = iter(range(10**6))
    line = lambda: " ".join(f"w{next(numbers)}" for _ in range(words))  # noqa: E731
    return "\n".join(f"{line()}\t{line()}" for _ in range(count))


ISSUE_JOB = {"preset": "small", "config": {"d_model": 64}, "pairs": distinct_pairs(120, 40),
             "epochs": 1, "batch_size": 4096}


def client(limits: Limits | None = None) -> TestClient:
    return TestClient(create_app(limits), base_url="http://127.0.0.1")


def wait_done(c: TestClient, job_id: str, seconds: float = 60) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status = c.get(f"/api/train/{job_id}").json()
        if status["state"] != "running":
            return status
        time.sleep(0.05)
    raise AssertionError("the job did not end")


def test_the_job_of_the_issue_is_refused_before_anything_is_allocated():
    tracemalloc.start()
    try:
        response = client().post("/api/train", json=ISSUE_JOB)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert response.status_code == 422
    err = response.json()
    assert err["field"] == "batch_size"
    total, limit = (int(x.replace(",", "")) for x in
                    re.findall(r"hold ([\d,]+) numbers.*limit of ([\d,]+)", err["error"])[0])
    assert limit == 32_000_000 and total > limit
    # Its logits alone are 96 train pairs × 41 target positions × 9,603 words.
    assert total > 96 * 41 * 9603
    assert "no batch_size fits" in err["error"]
    assert peak < 100 * 2**20  # a refusal: nothing near one step's 1.2 GB was allocated


def named_batch(message: str) -> int:
    return int(re.search(r"batch_size ([\d,]+) or less would fit", message)[1].replace(",", ""))


def test_the_batch_size_named_fits_and_one_more_does_not():
    # 400 short pairs: the evaluation's 64 pairs fit, 400 in one batch do not.
    limits = Limits(max_step_numbers=10_000_000)
    body = {"preset": "small", "pairs": distinct_pairs(400, 3), "epochs": 1,
            "batch_size": 4096}
    c = client(limits)
    err = c.post("/api/train", json=body).json()
    fits = named_batch(err["error"])
    assert 64 <= fits < 400
    over = c.post("/api/train", json=body | {"batch_size": fits + 1})
    assert over.status_code == 422 and named_batch(over.json()["error"]) == fits
    started = c.post("/api/train", json=body | {"batch_size": fits})
    assert started.status_code == 202, started.json()
    c.post(f"/api/train/{started.json()['id']}/cancel")
    assert wait_done(c, started.json()["id"])["state"] in ("cancelled", "done")


def test_the_price_is_above_what_a_step_allocates():
    """The estimate, in float64 bytes, bounds what one step allocates (tracemalloc, which
    counts every thread's allocations: no job of another test may still run)."""
    assert not [t for t in threading.enumerate() if t.name.startswith("handformer-train")]
    from handformer.server.training import parse_train
    from handformer.train import loop
    from handformer.train.data import batches

    body = {"preset": "small", "config": {"d_model": 64, "heads": 8}, "epochs": 1,
            "pairs": distinct_pairs(24, 12), "batch_size": 24}
    cfg, pairs, options, numbers = parse_train(body, Limits())
    run = loop.start(cfg, pairs, options)
    batch = next(batches(run.vocab, run.train, options.batch_size, run.rng))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        loop.numpy_step(run, batch)
        used = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert 0 < used <= 8 * numbers


def test_a_job_waits_for_room_in_the_budget_and_stops_while_it_waits():
    c = client()
    budget = c.app.state.budget
    with budget.hold(budget.capacity):  # a walk holding everything
        job = c.post("/api/train", json={"epochs": 2}).json()
        time.sleep(0.5)
        status = c.get(f"/api/train/{job['id']}").json()
        assert status["state"] == "running" and status["epochs_done"] == 0
        c.post(f"/api/train/{job['id']}/cancel")
        assert wait_done(c, job["id"])["state"] == "cancelled"
    assert budget.in_flight == 0
    job = c.post("/api/train", json={"epochs": 2}).json()
    assert wait_done(c, job["id"])["state"] == "done"
    assert budget.in_flight == 0


def test_the_budget_serves_requests_in_the_order_they_came():
    budget, order = Budget(capacity=10, wait_seconds=5), []

    def want(name: str, numbers: int):
        with budget.hold(numbers):
            order.append(name)

    with budget.hold(10):
        big = threading.Thread(target=want, args=("big", 10))
        big.start()
        time.sleep(0.2)
        small = threading.Thread(target=want, args=("small", 1))
        small.start()
        time.sleep(0.2)
        assert order == []  # the small one does not pass the big one waiting before it
    big.join(5)
    small.join(5)
    assert order == ["big", "small"]


def test_a_waiting_request_gives_up_after_its_wait_and_others_go_on():
    budget = Budget(capacity=10, wait_seconds=0.2)
    with budget.hold(8):
        with pytest.raises(RequestError) as busy:
            with budget.hold(5):
                pass
        assert busy.value.status == 503
        with budget.hold(2):  # the one that gave up no longer blocks the queue
            assert budget.in_flight == 10


def test_a_memory_error_in_a_job_fails_it_in_one_line_and_the_server_goes_on(monkeypatch):
    from handformer.train import loop

    def no_memory(run, batch):
        raise MemoryError("Unable to allocate 288. MiB for an array with shape (96, 41, 9603)")

    c = client()
    monkeypatch.setattr(loop, "numpy_step", no_memory)
    job = c.post("/api/train", json={"epochs": 1}).json()
    status = wait_done(c, job["id"])
    assert status["state"] == "failed"
    assert status["error"].startswith("the server ran out of memory for this job")
    assert "Unable to allocate" not in status["error"] and "\n" not in status["error"]
    assert status["model"] is False  # its weights were given back
    assert c.app.state.budget.in_flight == 0
    monkeypatch.undo()
    again = c.post("/api/train", json={"epochs": 1}).json()
    assert wait_done(c, again["id"])["state"] == "done"


def test_a_server_gives_freed_memory_back():
    from handformer.train.memory import give_back_freed_memory

    assert give_back_freed_memory() in (True, False)  # False only off glibc
    import platform

    if platform.libc_ver()[0] == "glibc":
        assert give_back_freed_memory() is True
