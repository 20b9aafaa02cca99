"""Fifty clients at once, each with its own sentence pair: each gets its own tape, the one the
engine computes directly."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

import handformer
from handformer.files.tape_json import dumps

from .conftest import Client

WORDS = ["you", "win", "or", "die", "the", "game", "of", "thrones", "storm", "he", "brings",
         "i", "drink", "know", "things"]


def sentence_pairs(n: int) -> list[tuple[str, str]]:
    """n different (src, tgt) pairs of tutorial words, two to four words long."""
    pairs = []
    for i, (a, b) in enumerate(itertools.permutations(WORDS, 2)):
        extra = " the" * (i % 3)
        pairs.append((f"{a} {b}{extra}", f"{b}{extra} {a}"))
        if len(pairs) == n:
            break
    return pairs


def test_fifty_concurrent_walks_each_get_their_own_tape(server):
    pairs = sentence_pairs(50)
    assert len(set(pairs)) == 50

    def walk(pair):
        body = {"src": pair[0], "tgt": pair[1], "config": {"heads": 2, "d_model": 8}}
        status, _, data = Client(server.url).request("POST", "/api/walk", body)
        return status, data.decode("utf-8")

    with ThreadPoolExecutor(max_workers=50) as pool:
        answers = list(pool.map(walk, pairs))
    for (src, tgt), (status, text) in zip(pairs, answers, strict=True):
        assert status == 200
        assert text == dumps(handformer.walk(src=src, tgt=tgt, heads=2, d_model=8))
