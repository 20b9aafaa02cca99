"""Job ids are checked against the one form this server makes before any route is chosen, and
every error is JSON (issue 45, item 8: `?job=../../api/walk` in the page's address got a
plain-text 404 the page's script could not parse)."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("starlette", reason="needs starlette (pip install 'handformer[serve]')")

from starlette.testclient import TestClient  # noqa: E402

from handformer.server.app import create_app  # noqa: E402

BAD_IDS = ["..%2F..%2Fapi%2Fwalk", "abc", "A" * 13, "A" * 11, "AAAAAAAAAA%00A", "%2e%2e",
           "AAAAAAAAAAA%21", "AAAA%20AAAAAAA"]
JOB_ROUTES = [("GET", ""), ("GET", "/events"), ("DELETE", ""), ("POST", "/cancel"),
              ("POST", "/pace"), ("POST", "/beside")]


@pytest.fixture(scope="module")
def client():
    c = TestClient(create_app(), base_url="http://127.0.0.1", raise_server_exceptions=False)
    c.job = c.post("/api/train", json={"epochs": 1}).json()["id"]
    while c.get(f"/api/train/{c.job}").json()["state"] == "running":
        time.sleep(0.05)
    return c


def json_answer(response) -> dict:
    assert response.headers["content-type"].startswith("application/json"), response.text
    return json.loads(response.text)


@pytest.mark.parametrize("job", BAD_IDS)
@pytest.mark.parametrize("method, tail", JOB_ROUTES)
def test_a_malformed_job_id_is_a_json_404_before_routing(client, job, method, tail):
    response = client.request(method, f"/api/train/{job}{tail}", json={})
    assert response.status_code == 404
    assert json_answer(response) == {"error": "no such training job in this session",
                                     "field": "job"}


def test_the_ids_this_server_makes_pass_the_check(client):
    # secrets.token_urlsafe(9): 9 random bytes in base64url, 12 characters of [A-Za-z0-9_-]
    assert len(client.job) == 12
    assert client.get(f"/api/train/{client.job}").json()["state"] == "done"
    beside = client.post(f"/api/train/{client.job}/beside",
                         json={"src": "you win", "tgt": "you die"})
    assert beside.status_code == 200, beside.text


def test_a_well_formed_id_this_session_lacks_is_still_404(client):
    answer = client.get("/api/train/AAAAAAAAAAAA")
    assert answer.status_code == 404 and json_answer(answer)["field"] == "job"


@pytest.mark.parametrize("method, path, status", [
    ("GET", "/api/walk", 405), ("GET", "/api/nothing", 404), ("POST", "/api/train/x/y/z", 404),
    ("GET", "/static/nothing.js", 404), ("PUT", "/api/quiz", 405)])
def test_every_route_error_is_json(client, method, path, status):
    response = client.request(method, path)
    assert response.status_code == status
    assert isinstance(json_answer(response)["error"], str)
