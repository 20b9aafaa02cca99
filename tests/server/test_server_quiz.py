"""The web app's quiz: questions on the configured model, answers checked on the server (never
sent with the questions), a running score per session, each session its own quiz."""

import json

import numpy as np

import handformer
from handformer.exercises.question import read
from handformer.exercises.sheet import make_sheet

from .conftest import Client

WALK = {"preset": "tutorial", "backward": True}


def start(client, **body):
    return client.json("POST", "/api/quiz", {"walk": WALK, "count": 6, "seed": 3} | body)


def test_questions_come_without_answers_and_are_the_worksheets(server):
    status, quiz = start(Client(server.url))
    assert status == 200, quiz
    assert len(quiz["questions"]) == 6 and quiz["score"] == {"asked": 6, "answered": 0, "right": 0}
    assert not any("answer" in q for q in quiz["questions"])
    tape = handformer.walk(backward=True)
    sheet = make_sheet(tape, 6, 3)
    assert [(q["step"], q["cell"]) for q in quiz["questions"]] == [
        (q.step, list(q.cell)) for q in sheet]


def test_answers_are_checked_on_the_server_and_scored_once(server):
    client = Client(server.url)
    questions = start(client)[1]["questions"]
    tape = handformer.walk(backward=True)
    first, second, third = questions[:3]
    value = read(tape, first["step"], first["field"], tuple(first["cell"]))
    typed = "-inf" if np.isinf(value) else f"{value + first['tolerance'] / 2:.12f}"
    status, reply = client.json("POST", "/api/quiz/answer", {"id": first["id"], "answer": typed})
    assert status == 200 and reply["right"] is True
    assert reply["score"] == {"asked": 6, "answered": 1, "right": 1}
    wrong = read(tape, second["step"], second["field"], tuple(second["cell"])) + 1 + 10 * second[
        "tolerance"]
    status, reply = client.json("POST", "/api/quiz/answer", {"id": second["id"], "answer": wrong})
    assert reply["right"] is False and "answer" not in reply
    assert reply["score"]["right"] == 1 and reply["score"]["answered"] == 2
    # trying again right does not raise the score: the first answer counts
    right = read(tape, second["step"], second["field"], tuple(second["cell"]))
    status, reply = client.json("POST", "/api/quiz/answer", {"id": second["id"],
                                                             "answer": str(right)})
    assert reply["right"] is True and reply["score"]["right"] == 1
    status, reply = client.json("POST", "/api/quiz/answer", {"id": third["id"], "reveal": True})
    assert reply["answer"] == read(tape, third["step"], third["field"], tuple(third["cell"])) or (
        reply["answer"] == "-inf")
    assert client.json("GET", "/api/quiz/score")[1] == {"asked": 6, "answered": 3, "right": 1}


def test_each_session_has_its_own_quiz(server):
    a, b = Client(server.url), Client(server.url)
    qid = start(a)[1]["questions"][0]["id"]
    status, reply = b.json("POST", "/api/quiz/answer", {"id": qid, "answer": 1})
    assert status == 404
    assert b.json("GET", "/api/quiz/score")[0] == 404


def test_bad_requests_are_refused_with_their_field(server):
    client = Client(server.url)
    for body, where in (({"count": 0}, "count"), ({"level": "expert"}, "level"),
                        ({"kinds": "score"}, "kinds"), ({"colour": 1}, "colour"),
                        ({"kinds": ["nonsense"]}, None)):
        status, reply = start(client, **body)
        assert status in (400, 422) and reply["field"] == where, (body, reply)
    start(client)
    status, reply = client.json("POST", "/api/quiz/answer", {"id": "q1", "answer": "many"})
    assert status == 422 and reply["field"] == "answer"
    assert json.dumps(reply).count("error") == 1


def test_a_quiz_on_a_model_trained_in_this_session(server):
    from .test_server_train import wait_done

    client = Client(server.url)
    status, job = client.json("POST", "/api/train", {"epochs": 30})
    assert status == 202
    wait_done(client, job["id"])
    status, quiz = client.json("POST", "/api/quiz", {"job": job["id"], "backward": True,
                                                     "kinds": ["logit", "grad_logit"],
                                                     "count": 4, "seed": 1})
    assert status == 200, quiz
    fresh = handformer.walk(backward=True)  # the untrained model of the same config
    for q in quiz["questions"]:
        status, reply = client.json("POST", "/api/quiz/answer", {"id": q["id"], "reveal": True})
        assert status == 200
        if q["cell"][-1] < 25:
            assert reply["answer"] != read(fresh, q["step"], q["field"], tuple(q["cell"]))
    status, again = client.json("POST", "/api/quiz/answer", {"id": q["id"],
                                                             "answer": reply["answer"]})
    assert again["right"] is True and again["score"]["right"] == 0  # revealed: counted missed
    status, other = Client(server.url).json("POST", "/api/quiz", {"job": job["id"]})
    assert status == 404
