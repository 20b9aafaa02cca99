"""The common refusals come with a message key and their numbers, worded in en and zh."""

from __future__ import annotations

import re

import pytest

from handformer.server.error_text import PATTERNS
from handformer.server.ui_text import words

CASES = [  # (walk body, field, key, values): each an error the engine or the limits really raise
    ({"config": {"d_model": 7}}, "config.d_model", "err.odd_d_model",
     {"d_model": "7", "d_model_up": "8"}),
    ({"preset": "small", "config": {"d_model": 8, "heads": 3}}, "config.d_model",
     "err.not_divisible", {"d_model": "8", "heads": "3"}),
    ({"src": "you play dragons"}, "src", "err.unknown_src", {"words": "'dragons'"}),
    ({"tgt": "you win or you fly"}, "tgt", "err.unknown_tgt", {"words": "'fly'"}),
    ({"config": {"d_model": 10**6}}, "config.d_model", "err.over_cap",
     {"name": "d_model", "value": "1,000,000", "cap": "512"}),
    ({"src": ""}, "src", "err.empty", {"name": "src"}),
    ({"tgt": " "}, "tgt", "err.empty", {"name": "tgt"}),
    ({"config": {"d_ff": 0}}, "config.d_ff", "err.at_least", {"name": "d_ff", "min": "1", "value": "0"}),
    ({"src": "you " * 60}, "src", "err.too_long.words", {"name": "src", "value": "60", "cap": "48"}),
    ({"preset": "small", "config": {"d_model": 512, "d_ff": 2048, "layers": 6, "heads": 16}},
     "config", "err.too_many_weights", None),
]


@pytest.mark.parametrize("body, field, key, values", CASES)
def test_common_refusals_carry_their_key_and_numbers(client, body, field, key, values):
    status, d = client.json("POST", "/api/walk", body)
    assert status == 422 and d["field"] == field and d["key"] == key, d
    if values is not None:
        assert d["values"] == values
    else:  # the weight count: the numbers of the English message, unchanged
        assert [d["values"]["value"], d["values"]["cap"]] == re.findall(r"[\d,]{5,}", d["error"])


def test_other_refusals_keep_only_the_english(client):
    status, d = client.json("POST", "/api/walk", {"lr": "fast"})
    assert status == 400 and "key" not in d and d["error"] == "lr must be a number, got 'fast'"


def test_every_key_is_worded_in_both_languages_with_the_same_blanks():
    keys = {k for k, _ in PATTERNS if k != "err.too_long"}
    keys |= {f"err.too_long.{u}" for u in ("words", "characters", "lines")}
    for key in keys:
        blanks = {lang: set(re.findall(r"\{(\w+)\}", words(lang)[key])) for lang in ("en", "zh")}
        assert blanks["en"] == blanks["zh"] and blanks["en"], key


def test_the_chinese_odd_d_model_message_is_filled_in(client):
    _, d = client.json("POST", "/api/walk", {"config": {"d_model": 7}})
    said = words("zh")[d["key"]].format(**d["values"])
    assert said.startswith("d_model 7 是奇数") and "例如 8" in said
