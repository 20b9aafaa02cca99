"""Training pairs from the corpus box: cut at a tab, else at the first comma of either width; a
line with no separator is refused by its number; the tokenizer the CLI has, chosen by name."""

from __future__ import annotations

import pytest

from handformer.server import ui_text
from handformer.server.limits import Limits, RequestError
from handformer.server.training import corpus_pairs, split_lines
from handformer.text import TUTORIAL_DATASET


def test_a_tab_or_the_first_comma_of_either_width_cuts_a_line():
    assert split_lines(["我爱你，I love you", "a b\tc, d", "x, y, z"]) == [
        ("我爱你", "I love you"), ("a b", "c, d"), ("x", "y, z")]


@pytest.mark.parametrize("bad", ["winter is coming", "nothing after the comma,", "\tno source"])
def test_a_line_without_two_sides_is_refused_by_its_number(bad):
    with pytest.raises(RequestError) as err:
        split_lines(["a, b", "c，d", bad])
    assert err.value.field == "corpus"
    assert err.value.message.startswith("corpus line 3 has no tab or comma")
    assert bad.strip() in err.value.message


def test_the_tutorials_dataset_keeps_the_tutorials_own_pairs():
    # `handformer train`'s rule for its own data: the comma-less first line is itself → itself
    assert corpus_pairs(list(TUTORIAL_DATASET))[0] == ("I drink and I know things.",) * 2
    assert corpus_pairs(None) == corpus_pairs(list(TUTORIAL_DATASET))


def test_the_pairs_endpoint_lists_pairs_and_names_the_bad_line(client):
    status, answer = client.json("POST", "/api/pairs", {"corpus": "我爱你，I love you\nx\ty"})
    assert status == 200 and answer == {"pairs": [["我爱你", "I love you"], ["x", "y"]]}
    status, answer = client.json("POST", "/api/pairs", {"corpus": "a, b\n\nwinter is coming"})
    assert status == 422 and answer["key"] == "err.no_separator"
    assert answer["values"] == {"line": "2", "text": "winter is coming"}  # non-empty lines counted


def test_training_refuses_a_corpus_line_without_a_separator(client):
    status, answer = client.json("POST", "/api/train", {"corpus": "a, b\nwinter is coming",
                                                        "epochs": 1})
    assert status == 422 and answer["field"] == "corpus" and "line 2" in answer["error"]


def test_characters_cut_unspaced_chinese_into_one_token_each(client):
    body = {"src": "我爱你", "tgt": "i love you", "corpus": "我爱你, I love you",
            "tokenizer": "char"}
    status, tape = client.json("POST", "/api/walk", body)
    assert status == 200
    src = next(s for s in tape["steps"] if s["name"] == "src.ids")
    assert len(src["value"]) == 3  # 我 · 爱 · 你
    status, tape = client.json("POST", "/api/walk", body | {"tokenizer": "tutorial"})
    assert status == 200
    assert len(next(s for s in tape["steps"] if s["name"] == "src.ids")["value"]) == 1


def test_an_unknown_tokenizer_is_refused_by_name(client):
    status, answer = client.json("POST", "/api/walk", {"tokenizer": "sentencepiece"})
    assert status == 422 and answer["field"] == "tokenizer" and "char" in answer["error"]


def test_the_page_is_told_whether_jieba_is_installed(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "jieba" else real(name, *a))
    assert ui_text.bundle(Limits())["tokenizers"] == {"jieba": False}
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object())
    assert ui_text.bundle(Limits())["tokenizers"] == {"jieba": True}
