"""The app's shared services serve the decoder-only family as they serve the encoder-decoder
(issue 42): its quiz asks the worksheet's questions on its own walk, and compare parts two of
its runs where their texts part."""

import handformer
from handformer.exercises.sheet import make_sheet

from .conftest import Client


def test_the_quiz_on_a_gpt_walk_is_the_worksheet_of_that_walk(server):
    walk = {"family": "gpt", "preset": "tutorial", "backward": True}
    status, quiz = Client(server.url).json("POST", "/api/quiz",
                                           {"walk": walk, "count": 6, "seed": 3})
    assert status == 200, quiz
    sheet = make_sheet(handformer.walk(family="gpt", backward=True), 6, 3)
    assert [(q["step"], q["cell"]) for q in quiz["questions"]] == [
        (q.step, list(q.cell)) for q in sheet]


def test_compare_parts_two_gpt_runs_at_their_token_ids(client):
    a = {"family": "gpt", "src": "the game", "tgt": "you die"}
    b = {"family": "gpt", "src": "the storm", "tgt": "you die"}
    status, same = client.json("POST", "/api/compare", {"a": a, "b": a})
    assert status == 200 and same["first_difference"] is None
    status, d = client.json("POST", "/api/compare", {"a": a, "b": b})
    assert status == 200, d
    one, two = (handformer.walk(**{k: v for k, v in x.items()}) for x in (a, b))
    moved = [s.name for s in one.steps if s.name in two.index
             and (s.value.shape != two.index[s.name].value.shape
                  or (s.value != two.index[s.name].value).any())]
    assert d["first_difference"] == moved[0]
