"""Datasets (HSK, TSV files), the three-way split, length batching, early stopping, BLEU."""

import json
import re
from importlib.resources import files

import numpy as np
import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.families.transformer.greedy import greedy_batch
from handformer.train import checkpoint, loop
from handformer.train.bleu import corpus_bleu
from handformer.train.data import batch_order, split3
from handformer.train.datasets import (
    DatasetError,
    hsk_pairs,
    load_pairs,
    parse_levels,
    source_name,
)
from handformer.truecase import CasedVocab

pytest.importorskip("hsk_sentences_audio")


def raw_records():
    path = files("hsk_sentences_audio").joinpath("data", "sentences.json")
    return json.loads(path.read_text(encoding="utf-8"))


def test_levels():
    assert parse_levels("1-3") == (1, 2, 3)
    assert parse_levels("2") == (2,)
    assert parse_levels("1,4-5") == (1, 4, 5)
    for bad in ("0-2", "x", "3-7"):
        with pytest.raises(DatasetError):
            parse_levels(bad)


def test_hsk_pairs_in_both_directions():
    zh_en = hsk_pairs("zh-en", (1, 2, 3))
    assert len(zh_en) == sum(1 for r in raw_records() if r["hsk_level"] <= 3)
    assert zh_en[0] == ("老师，您好！", "Hello, teacher!")  # the file's first record
    assert hsk_pairs("en-zh", (1,))[0] == ("Hello, teacher!", "老师，您好！")
    assert load_pairs("hsk:zh-en:1,2,3") == zh_en


def test_source_names():
    assert source_name("hsk", None, "en-zh", "1-3") == "hsk:en-zh:1,2,3"
    assert source_name(None, "p.tsv", "zh-en", "1-3") == "p.tsv"
    assert source_name(None, None, "zh-en", "1-3") == "default"
    with pytest.raises(DatasetError, match="not both"):
        source_name("hsk", "p.tsv", "zh-en", "1-3")


def test_three_way_split_is_deterministic_and_disjoint():
    items = list(range(1000))
    a = split3(items, np.random.default_rng([7, 1]))
    b = split3(items, np.random.default_rng([7, 1]))
    assert a == b
    train, valid, test = a
    assert (len(train), len(valid), len(test)) == (800, 100, 100)
    assert sorted(train + valid + test) == items
    assert split3(list(range(50)), np.random.default_rng(0))[2] == []  # too few for a test set
    assert split3(list(range(10)), np.random.default_rng(0)) == (list(range(10)), [], [])


def test_batches_by_length_group_similar_lengths():
    # ten pairs whose lengths are 1..10, batches of 2: sorted runs give neighbours (1,2), (3,4)…
    encoded = [([0] * n, [0] * (n - 1)) for n in range(1, 11)]
    batches = batch_order(encoded, 2, np.random.default_rng(0), by_length=True)
    lengths = sorted(sorted(len(encoded[i][0]) for i in b) for b in batches)
    assert lengths == [[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]]
    assert sorted(i for b in batches for i in b) == list(range(10))


def test_early_stopping_rule():
    run = loop.Run(None, loop.Options(patience=2), None, {}, None, None, [], [1], 0, [])
    run.history = [{"val_loss": v} for v in (3.0, 2.0, 2.5)]
    assert not loop.stopped_early(run)  # one epoch without improvement
    run.history.append({"val_loss": 2.1})
    assert loop.stopped_early(run)  # two
    assert loop.best_path("out/run.ckpt").endswith("out/run.best.ckpt")


def test_bleu_from_sacrebleu():
    assert corpus_bleu(["the cat sat on the mat"], ["The cat sat on the mat."]) < 100
    # cased (sacrebleu's default): only "The" differs; n-gram precisions 6/7, 5/6, 4/5, 3/4
    # (the hypothesis's second "the" matches the reference's), brevity penalty 1
    assert corpus_bleu(["the cat sat on the mat ."], ["The cat sat on the mat."]) == (
        pytest.approx(100 * (3 / 7) ** 0.25))
    assert corpus_bleu(["the cat sat on the mat ."], ["The cat sat on the mat."],
                       lowercase=True) == pytest.approx(100)
    assert corpus_bleu(["我喜欢学中文"], ["我喜欢学中文"], "zh") == pytest.approx(100)
    assert corpus_bleu(["你好"], ["我喜欢学中文"], "zh") == 0


def test_batched_greedy_equals_one_sentence_greedy():
    from handformer.families.transformer.config import preset
    from handformer.families.transformer.decode import translate
    from handformer.train.data import default_pairs

    run = loop.fit(loop.start(preset("tutorial"), default_pairs(), loop.Options(epochs=60)))
    sources = [run.vocab.encode(s) for s, _ in default_pairs()]
    batched = greedy_batch(run.params, run.config, run.vocab, sources)
    one_by_one = [translate(run.params, run.config, run.vocab, s).ids for s, _ in default_pairs()]
    assert batched == one_by_one


def test_cli_trains_on_an_hsk_slice_and_translates(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(main, [
        "train", "--dataset", "hsk", "--limit", "120", "--preset", "small", "--d-model", "16",
        "--heads", "2", "--epochs", "3", "--lr", "0.003", "--quiet", "--patience", "5"])
    assert result.exit_code == 0, result.output
    # the test part: the sentences whose SHA-256 (first 8 bytes mod 1000) falls below 100
    import hashlib

    tested = sum(int.from_bytes(hashlib.sha256(zh.encode()).digest()[:8], "big") % 1000 < 100
                 for zh, _ in hsk_pairs("zh-en", (1, 2, 3))[:120])
    assert "CC-BY-SA 4.0" in result.output and f"test ({tested} pairs)" in result.output
    ckpt = checkpoint.load("handformer.ckpt")
    assert ckpt.vocab.tokenizer == "char" and "<unk>" in ckpt.vocab.target.specials
    # one vocabulary per side: the encoder's rows are the source's, the generator's the target's
    assert ckpt.vocab.source != ckpt.vocab.target
    assert ckpt.params["src_embed.weight"].shape[0] == len(ckpt.vocab.source)
    assert ckpt.params["generator.w"].shape[1] == len(ckpt.vocab.target)
    assert ckpt.params["generator.w"].dtype == np.float32  # a real corpus trains in float32
    losses = [h["loss"] for h in ckpt.history]
    assert losses[-1] < losses[0]
    assert all({"val_bleu", "val_chrf", "val_bleu_lower"} <= set(h) for h in ckpt.history)
    out = runner.invoke(main, ["translate", "我喜欢学中文"])
    assert out.exit_code == 0, out.output
    # the English side is lower-cased to tokens and recased by the truecaser it learnt
    assert isinstance(ckpt.vocab.target, CasedVocab) and "I" not in ckpt.vocab.target.words
    said = re.search(r"[^\W\d_]+", out.output.strip().splitlines()[-1].replace("<unk>", ""))
    assert said is None or said.group()[0].isupper(), out.output
    walked = runner.invoke(main, ["walk", "--checkpoint", "handformer.ckpt", "--src", "我喜欢学中文",
                                  "--tgt", "I like to study Chinese.", "--steps", "1",
                                  "--width", "300"])
    assert walked.exit_code == 0, walked.output
    assert "licensed CC-BY-SA 4.0" in walked.output  # the data's credit where it is shown
    assert "Cut by the “char” tokenizer" in walked.output
