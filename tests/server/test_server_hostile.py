"""Requests built to hurt the server: caps that multiply, JSON too deep or too long, lone
surrogates, non-finite numbers, and a flood of sessions around a running training job. Every
answer is a 4xx with a JSON body, or a correct result, and the server keeps serving."""

from __future__ import annotations

import json
import re
import time
import urllib.request

import pytest

POSTS = ["/api/walk", "/api/panels", "/api/compare", "/api/train", "/api/translate"]
LONG = " ".join(["the"] * 48)  # a 48-word sentence, the cap of each sentence
MAXIMAL = {"backward": True, "src": LONG, "tgt": LONG,
           "config": {"heads": 16, "layers": 6, "d_model": 64, "d_k": 8, "d_v": 8}}


def strict_json(data: bytes):
    """Parsed JSON that refuses NaN and the infinities, as every JSON parser but Python's."""
    def refuse(name):
        raise ValueError(f"{name} is not JSON")

    return json.loads(data, parse_constant=refuse)


def answer(client, path, body=None, raw=None):
    status, headers, data = client.request("POST", path, body, raw=raw)
    assert headers.get("content-type", "").startswith("application/json"), headers
    return status, strict_json(data)


def test_caps_that_multiply_are_refused_before_any_work(client):
    start = time.monotonic()
    status, err = answer(client, "/api/walk", MAXIMAL)
    assert status == 422, err
    assert time.monotonic() - start < 5
    total, limit = (int(x.replace(",", "")) for x in
                    re.findall(r"([\d,]+) numbers.*limit of ([\d,]+)", err["error"])[0])
    assert limit == 2_000_000 and total > limit


def test_a_large_request_under_the_limit_is_answered_whole(client):
    body = {"preset": "small", "backward": True, "src": LONG, "tgt": LONG}
    status, tape = answer(client, "/api/walk", body)
    assert status == 200
    assert tape["src"]["tokens"] == LONG.split()  # all 48 words, none dropped


def test_fifty_training_steps_of_a_large_model_are_refused(client):
    body = {"a": {"preset": "small", "src": LONG, "tgt": LONG}, "train_steps": 50}
    status, err = answer(client, "/api/compare", body)
    assert status == 422 and "numbers on its tapes" in err["error"], err


def test_fifty_training_steps_of_the_tutorial_still_run(client):
    status, diff = answer(client, "/api/compare", {"a": {}, "train_steps": 50})
    assert status == 200 and diff["first_difference"] is not None


@pytest.mark.parametrize("path", POSTS)
def test_json_nested_100000_deep_is_400(client, path):
    status, err = answer(client, path, raw=b"[" * 100_000 + b"]" * 100_000)
    assert status == 400 and "nested" in err["error"], err


@pytest.mark.parametrize("path", POSTS)
def test_a_5000_digit_number_is_400(client, path):
    status, err = answer(client, path, raw=b'{"lr": ' + b"9" * 5000 + b"}")
    assert status == 400 and "5,000 digits" in err["error"], err


@pytest.mark.parametrize("path", POSTS)
def test_a_lone_surrogate_is_400(client, path):
    status, err = answer(client, path, raw=b'{"src": "the \\ud800 storm"}')
    assert status == 400 and "surrogate" in err["error"], err


@pytest.mark.parametrize("literal", [b"NaN", b"Infinity", b"-Infinity", b"1e400"])
def test_non_finite_lr_is_400(client, literal):
    status, err = answer(client, "/api/walk", raw=b'{"backward": true, "lr": ' + literal + b"}")
    assert status == 400, err


@pytest.mark.parametrize("lr", [1e308, -1e308])
def test_an_lr_that_overflows_the_update_is_422_not_nan(client, lr):
    status, err = answer(client, "/api/walk", {"backward": True, "lr": lr})
    assert status == 422 and "smaller lr" in err["error"], err


def test_a_legal_lr_still_answers_valid_json(client):
    status, tape = answer(client, "/api/walk", {"backward": True, "lr": 0.5})
    assert status == 200 and tape["update"]["lr"] == 0.5


def test_a_session_flood_does_not_orphan_a_running_job(server):
    from .conftest import Client

    owner = Client(server.url)
    # a job that runs for minutes (small preset, 240 pairs, 2000 epochs), so that it is still
    # running when the flood has passed however fast the machine is; DELETE stops it below
    pairs = "\n".join(f"w{i} x{i % 7}\ty{i % 5} z{i}" for i in range(240))
    status, job = owner.json("POST", "/api/train", {"epochs": 2000, "preset": "small",
                                                    "pairs": pairs})
    assert status == 202, job
    for _ in range(501):  # each cookie-less request makes a new session
        urllib.request.urlopen(server.url + "/favicon.ico", timeout=30).read()
    status, seen = owner.json("GET", f"/api/train/{job['id']}")
    assert status == 200 and seen["id"] == job["id"] and seen["state"] == "running", seen
    status, stopped = owner.json("DELETE", f"/api/train/{job['id']}")
    assert status == 200
    deadline = time.monotonic() + 30
    while owner.json("GET", f"/api/train/{job['id']}")[1]["state"] == "running":
        assert time.monotonic() < deadline, "the job did not stop"
        time.sleep(0.1)


def test_the_server_still_serves_after_all_of_it(client):
    status, _, page = client.request("GET", "/")
    assert status == 200 and b"<html" in page.lower()


def test_the_budget_lets_requests_in_only_while_there_is_room():
    import threading

    from handformer.server.budget import Budget
    from handformer.server.limits import RequestError

    budget = Budget(capacity=10, wait_seconds=0.2)
    with budget.hold(6):
        with pytest.raises(RequestError) as busy:
            with budget.hold(6):
                pass
        assert busy.value.status == 503
        with budget.hold(4):
            assert budget.in_flight == 10
    seen = []

    def second():
        with budget.hold(10):
            seen.append(budget.in_flight)

    with budget.hold(10):
        budget.wait_seconds = 5
        waiter = threading.Thread(target=second)
        waiter.start()
        time.sleep(0.1)
        assert seen == []  # no room while the first holds everything
    waiter.join(5)
    assert seen == [10] and budget.in_flight == 0
