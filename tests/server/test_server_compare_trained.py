"""Compare with "job": run b is the trained model of a training job of this session, walked on
b's sentences as `walk --checkpoint` walks it, and run a the same model before training (its
initial weights) on a's sentences. The expected numbers come from the job's model saved and
walked here through the public functions (train.loop.start, train.loop.snapshot,
train.checkpoint.save, handformer.walk), not from the server."""

from __future__ import annotations

import time

import numpy as np
import pytest

import handformer
from handformer.families.transformer.run import run_forward, setup_from_checkpoint
from handformer.train import checkpoint, loop
from handformer.train.data import default_pairs

from .conftest import Client
from .test_server_train import wait_done

PAIR = {"src": "when you play the game of thrones", "tgt": "you win or you die"}
EPOCHS = 30


@pytest.fixture(scope="module")
def trained(server, tmp_path_factory):
    """A client, its job trained EPOCHS epochs on the tutorial's pairs, and that job's model
    saved as a checkpoint here (the file the independent walks read)."""
    client = Client(server.url)
    status, job = client.json("POST", "/api/train", {"epochs": EPOCHS})
    assert status == 202, job
    assert wait_done(client, job["id"])["state"] == "done"
    run = server.server.config.app.state.jobs.models.get(job["id"]).run
    path = tmp_path_factory.mktemp("trained") / "job.ckpt"
    checkpoint.save(path, loop.snapshot(run, ""))
    return client, job["id"], str(path)


@pytest.fixture(scope="module")
def first_weights(server, trained, tmp_path_factory):
    """The job's model before training, made again here: a fresh run of the job's config and
    options on the tutorial's pairs (its seed gives the same initial weights), saved."""
    run = server.server.config.app.state.jobs.models.get(trained[1]).run
    fresh = loop.start(run.config, default_pairs(), run.options)
    path = tmp_path_factory.mktemp("first") / "first.ckpt"
    checkpoint.save(path, loop.snapshot(fresh, ""))
    return str(path)


def _loss(tape) -> float:
    return float(np.asarray(tape["loss"]).reshape(-1)[0])


def test_b_is_the_trained_model_and_a_the_same_model_before_training(trained, first_weights):
    client, job, path = trained
    status, d = client.json("POST", "/api/compare", {"a": PAIR, "job": job})
    assert status == 200, d
    walked = handformer.walk(checkpoint=path, **PAIR)  # the trained model's own walk
    untrained = handformer.walk(checkpoint=first_weights, **PAIR)  # its start, made again
    assert d["loss"]["b"] == _loss(walked)
    assert d["loss"]["a"] == _loss(untrained)
    assert d["loss"]["a"] != _loss(handformer.walk(**PAIR))  # not the form's model: its vocabulary
    assert d["loss"]["b"] < d["loss"]["a"]
    assert d["loss"]["delta"] == pytest.approx(_loss(walked) - _loss(untrained), rel=1e-12)
    assert d["first_difference"] == "src_embed.tok"  # the token embeddings were trained


def test_b_is_walked_on_bs_own_sentences(trained):
    client, job, path = trained
    other = {"src": "the true enemy", "tgt": "he brings the storm"}
    status, d = client.json("POST", "/api/compare", {"a": PAIR, "b": other, "job": job})
    assert status == 200, d
    assert d["loss"]["b"] == _loss(handformer.walk(checkpoint=path, **other))


def test_a_is_walked_on_as_own_sentences(trained, first_weights):
    client, job, _ = trained
    other = {"src": "the true enemy", "tgt": "he brings the storm"}
    status, d = client.json("POST", "/api/compare", {"a": other, "b": PAIR, "job": job})
    assert status == 200, d
    assert d["loss"]["a"] == _loss(handformer.walk(checkpoint=first_weights, **other))


def test_training_steps_start_from_the_trained_weights(trained):
    client, job, path = trained
    status, d = client.json("POST", "/api/compare", {"a": PAIR, "job": job, "train_steps": 1})
    assert status == 200, d
    stepped = handformer.walk(checkpoint=path, backward=True, lr=0.1, **PAIR)
    assert d["loss"]["b"] == pytest.approx(stepped.meta["update"]["loss_after"], rel=1e-12)
    assert d["loss"]["b"] < _loss(stepped)  # one more step downhill from the trained model


def test_one_weight_of_the_trained_model(trained):
    client, job, path = trained
    edit = {"param": "generator.w", "index": [1, 2], "value": 3.0}
    status, d = client.json("POST", "/api/compare", {"a": PAIR, "job": job, "edit": edit})
    assert status == 200, d
    s = setup_from_checkpoint(path)
    s.params["generator.w"][1, 2] = 3.0
    assert d["loss"]["b"] == pytest.approx(_loss(run_forward(s, **PAIR)), rel=1e-12)


def test_an_unknown_job_is_422_naming_job(trained):
    client = trained[0]
    status, d = client.json("POST", "/api/compare", {"a": PAIR, "job": "nope"})
    assert status == 422 and d["field"] == "job", d
    assert "no such training job" in d["error"]


def test_another_sessions_job_is_422_naming_job(trained, server):
    status, d = Client(server.url).json("POST", "/api/compare", {"a": PAIR, "job": trained[1]})
    assert status == 422 and d["field"] == "job", d


def test_a_job_with_no_model_yet_is_422_naming_job(server):
    client = Client(server.url)
    status, job = client.json("POST", "/api/train", {"epochs": 2000})
    assert status == 202
    client.json("POST", f"/api/train/{job['id']}/pace", {"pause": True})
    try:
        status, d = client.json("POST", "/api/compare", {"a": PAIR, "job": job["id"]})
        assert status == 422 and d["field"] == "job", d
        assert "no model yet" in d["error"]
    finally:
        client.json("POST", f"/api/train/{job['id']}/cancel")
        deadline = time.monotonic() + 30
        while client.json("GET", f"/api/train/{job['id']}")[1]["state"] == "running":
            assert time.monotonic() < deadline
            time.sleep(0.05)


def test_bs_sentence_errors_are_named_as_bs(trained):
    client, job, _ = trained
    status, d = client.json("POST", "/api/compare",
                            {"a": PAIR, "b": {"src": "x " * 60}, "job": job})
    assert status == 422 and d["field"] == "b.src", d


@pytest.mark.parametrize("body, field", [
    ({"a": {"src": "zebra crossing"}}, "a.src"),  # not in the trained model's vocabulary
    ({"a": PAIR, "b": {"tgt": "zebra"}}, "b.tgt"),
])
def test_a_word_the_job_does_not_know_is_named_as_its_runs(trained, body, field):
    client, job, _ = trained
    status, d = client.json("POST", "/api/compare", {**body, "job": job})
    assert status == 422 and d["field"] == field and "zebra" in d["error"], d
