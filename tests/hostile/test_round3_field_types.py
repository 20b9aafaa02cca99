"""Every field of every endpoint sent with every JSON type it does not take (issue 45, item 2):
400 naming the field, never a 500 and its traceback (`{"job": ["x"]}` was `TypeError:
unhashable type` on /api/quiz)."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette", reason="needs starlette (pip install 'handformer[serve]')")

from starlette.testclient import TestClient  # noqa: E402

from handformer.server.app import create_app  # noqa: E402

# The JSON types each field takes, written out from docs/server.md (s: string, n: number,
# b: true/false, o: object, l: list, null).
WALK = {"src": "s null", "tgt": "s null", "corpus": "s null", "preset": "s null",
        "config": "o null", "backward": "b", "lr": "n", "family": "s null",
        "tokenizer": "s null"}
ENDPOINTS = {
    "/api/walk": WALK,
    "/api/panels": WALK,
    "/api/compare": {"a": "o", "b": "o", "edit": "o null", "train_steps": "n"},
    "/api/panels/changed": {"walk": "o", "have": "o null", "only": "l null",
                            "frame": "s null", "edit": "o null", "train_steps": "n"},
    "/api/train": {"preset": "s null", "config": "o null", "corpus": "s null",
                   "pairs": "s null", "epochs": "n", "lr": "n", "optimizer": "s",
                   "batch_size": "n", "tokenizer": "s null"},
    "/api/translate": {"job": "s", "sentence": "s", "beam": "n", "alpha": "n",
                       "max_length": "n null", "explain": "b"},
    "/api/pairs": {"corpus": "s null"},
    "/api/train/JOB/pace": {"pause": "b", "step": "n", "epochs_per_second": "n null"},
    "/api/train/JOB/beside": {"src": "s", "tgt": "s"},
    "/api/quiz": {"walk": "o", "count": "n", "seed": "n", "level": "s", "kinds": "l null",
                  "lang": "s", "job": "s", "src": "s null", "tgt": "s null", "backward": "b"},
    "/api/quiz/answer": {"id": "s", "answer": "n s", "reveal": "b"},
}
SAMPLES = {"l": ["q1"], "o": {"q1": 1}, "null": None, "b": True, "n": 7, "s": "x"}
CASES = [(path, field, kind) for path, schema in ENDPOINTS.items()
         for field, takes in schema.items() for kind in SAMPLES if kind not in takes.split()]


@pytest.fixture(scope="module")
def client():
    c = TestClient(create_app(), base_url="http://127.0.0.1", raise_server_exceptions=False)
    job = c.post("/api/train", json={"epochs": 1}).json()["id"]
    while c.get(f"/api/train/{job}").json()["state"] == "running":
        time.sleep(0.05)
    c.job = job
    assert c.post("/api/quiz", json={"count": 1}).status_code == 200  # a quiz to answer
    return c


def test_the_table_covers_every_type_of_every_field():
    assert len(CASES) > 200
    assert ("/api/quiz", "job", "l") in CASES and ("/api/quiz/answer", "id", "l") in CASES


@pytest.mark.parametrize(("path", "field", "kind"), CASES)
def test_a_value_of_the_wrong_type_is_400_naming_the_field(client, path, field, kind):
    response = client.post(path.replace("JOB", client.job), json={field: SAMPLES[kind]})
    assert response.status_code == 400, response.text
    answer = response.json()
    assert answer["field"] == field
    assert answer["error"].startswith(f"{field} must be ")


NESTED = [("/api/compare", {"a": {"src": ["x"]}}, "a.src"),
          ("/api/compare", {"a": {}, "b": {"backward": "yes"}}, "b.backward"),
          ("/api/panels/changed", {"walk": {"lr": None}}, "lr"),
          ("/api/quiz", {"walk": {"config": []}}, "config"),
          ("/api/walk", {"config": {"d_model": "8"}}, "config.d_model"),
          ("/api/walk", {"config": {"d_model": [8]}}, "config.d_model"),
          ("/api/train", {"config": {"final_norm": 1}}, "config.final_norm"),
          ("/api/walk", {"config": {"seed": {"x": 1}}}, "config.seed")]


@pytest.mark.parametrize(("path", "body", "field"), NESTED)
def test_a_nested_field_of_the_wrong_type_is_400_naming_it(client, path, body, field):
    response = client.post(path, json=body)
    assert response.status_code == 400 and response.json()["field"] == field, response.text


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/train", {"epochs": 2.5}, "epochs"),
    ("/api/compare", {"a": {}, "train_steps": 1.5}, "train_steps"),
    ("/api/quiz", {"seed": 0.5}, "seed"),
    ("/api/walk", {"config": {"d_model": 8.5}}, "config.d_model"),
])
def test_a_number_that_is_not_whole_is_a_wrong_value_422(client, path, body, field):
    response = client.post(path, json=body)
    assert response.status_code == 422 and response.json()["field"] == field, response.text


def test_the_right_types_still_work(client):
    assert client.post("/api/quiz/answer", json={"id": "q1", "answer": "0.5"}).status_code == 200
    assert client.post("/api/pairs", json={"corpus": None}).status_code == 200
    paced = client.post(f"/api/train/{client.job}/pace", json={"epochs_per_second": None})
    assert paced.status_code == 200 and paced.json()["epochs_per_second"] is None
