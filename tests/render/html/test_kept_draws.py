"""The check questions' draws kept between runs: every answer is the one numpy's default_rng
gives for the same requests (kept, made fresh, or kept and then made fresh where a run's
requests part from the kept run's), an untrusted or impossible file is ignored, and a page made
with a warm cache never imports numpy.random."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from handformer.render.html import kept_draws
from handformer.render.html.kept_draws import Draws

SEED = 0
REQUESTS = [("permutation", 4), ("integers", 2), ("integers", 7), ("integers", 6),
            ("permutation", 3), ("integers", 1000), ("integers", 2)]
OTHER = REQUESTS[:3] + [("integers", 5), ("permutation", 6), ("integers", 9)]


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path


def numpys(requests) -> list:
    generator = np.random.default_rng(SEED)
    return [np.asarray(getattr(generator, method)(n)).tolist() for method, n in requests]


def drawn(requests) -> tuple[list, bool]:
    """The answers of a Draws to ``requests``, and whether it had to make a generator."""
    draws = Draws(SEED)
    answers = [getattr(draws, method)(n) for method, n in requests]
    made = draws._generator is not None
    draws.keep()
    kept_draws.write_kept()  # what the end of the process does
    return answers, made


def test_kept_fresh_and_partly_kept_answers_are_numpys():
    assert drawn(REQUESTS) == (numpys(REQUESTS), True)  # nothing kept yet
    assert drawn(REQUESTS) == (numpys(REQUESTS), False)  # all kept
    assert drawn(OTHER) == (numpys(OTHER), True)  # kept up to the 4th request, then fresh
    assert drawn(OTHER) == (numpys(OTHER), False)
    assert drawn(REQUESTS[:4]) == (numpys(REQUESTS[:4]), False)  # a shorter run is kept too


def test_answers_are_plain_python():
    draws = Draws(SEED)
    assert type(draws.integers(np.int64(5))) is int
    assert all(type(i) is int for i in draws.permutation(4))


def test_a_file_others_may_write_or_with_impossible_answers_is_not_read(cache):
    drawn(REQUESTS)
    (path,) = (cache / "handformer").glob("draws-*.json")
    forged = [[["permutation", 4, [0, 1, 2, 3]]] + [[m, n, 0] for m, n in REQUESTS[1:]]]
    impossible = [[["permutation", 4, [0, 0, 1, 2]], ["integers", 2, 5], 7, ["integers"],
                   ["permutation", 2, [0.0, 1.0]], ["integers", 2.0, 1], ["integers", 2, True]]]
    for text, mode in ((json.dumps(forged), 0o666), ("{not json", 0o600), ('{"a": 1}', 0o600),
                       ("[1, 2]", 0o600), (json.dumps(impossible), 0o600)):
        path.write_text(text)
        os.chmod(path, mode)
        if mode == 0o666:
            assert kept_draws._read(str(path)) == []
        assert drawn(REQUESTS) == (numpys(REQUESTS), True)


def test_an_unwritable_folder_is_no_error(cache, monkeypatch):
    blocked = cache / "blocked"
    blocked.write_text("a file where the cache folder would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    assert drawn(REQUESTS) == (numpys(REQUESTS), True)


@pytest.mark.process
def test_a_page_made_again_imports_no_numpy_random(cache, tmp_path):
    from support.processes import modules_after_a_walk

    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    page = str(tmp_path / "walk.html")
    first, _ = modules_after_a_walk("walk", "--format", "html", "-o", page, env=env)
    assert "numpy.random" in first  # the check below can see numpy.random
    again, _ = modules_after_a_walk("walk", "--format", "html", "-o", page, env=env)
    assert "numpy.random" not in again


@pytest.mark.parametrize("draw,request_,possible", [
    (["integers", 2, 1], ("integers", 2), True),
    (["permutation", 3, [2, 0, 1]], ("permutation", 3), True),
    (["integers", 2, 1], ("integers", 3), False),  # another request
    (["integers", 2, 1], ("permutation", 2), False),
    (["integers", 2, 5], ("integers", 2), False),  # out of range
    (["integers", 2, True], ("integers", 2), False),
    (["integers", 2.0, 1], ("integers", 2), False),
    (["permutation", 4, [0, 0, 1, 2]], ("permutation", 4), False),
    (["permutation", 2, [0.0, 1.0]], ("permutation", 2), False),
    (["integers", 2], ("integers", 2), False),
    (7, ("integers", 2), False),
])
def test_only_a_draw_numpy_could_give_is_used(draw, request_, possible):
    assert kept_draws._possible(draw, *request_) is possible
