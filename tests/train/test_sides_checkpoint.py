"""A checkpoint with one vocabulary per side keeps both (``vocab`` the source's, ``target_vocab``
the target's); a checkpoint with one shared vocabulary is written and read as before; a run of
a real corpus trains, translates and evaluates with the right side."""

import json

import numpy as np
from click.testing import CliRunner

from handformer.cli import main
from handformer.families.transformer.config import preset
from handformer.families.transformer.weights import load_weights, save_weights
from handformer.text import Sides, Vocab
from handformer.train import checkpoint, loop

PAIRS = [("我 爱 你", "i love you"), ("我 想 喝 水", "i want to drink water"),
         ("你 好", "hello"), ("他 是 老师", "he is a teacher")]


def _run(shared: bool):
    cfg = preset("small", d_model=8, heads=2, d_ff=16, layers=1)
    options = loop.Options(epochs=1, tokenizer="words", shared_vocab=shared)
    return loop.start(cfg, PAIRS, options)


def _metadata(path) -> dict:
    raw = path.read_bytes()
    header = json.loads(raw[8:8 + int.from_bytes(raw[:8], "little")])
    return json.loads(header["__metadata__"]["handformer"])


def test_round_trip_keeps_both_vocabularies(tmp_path):
    run = _run(shared=False)
    assert isinstance(run.vocab, Sides)
    assert "我" in run.vocab.source.words and "我" not in run.vocab.target.words
    assert "love" in run.vocab.target.words and "love" not in run.vocab.source.words
    path = tmp_path / "sides.ckpt"
    checkpoint.save(path, checkpoint.Checkpoint(run.config, run.vocab, run.params))
    meta = _metadata(path)
    assert meta["vocab"]["words"] == list(run.vocab.source.words)
    assert meta["target_vocab"]["words"] == list(run.vocab.target.words)
    back = checkpoint.load(path)
    assert back.vocab == run.vocab
    assert back.params["src_embed.weight"].shape[0] == len(run.vocab.source)
    assert back.params["generator.w"].shape[1] == len(run.vocab.target)


def test_a_shared_vocabulary_checkpoint_is_written_and_read_as_before(tmp_path):
    run = _run(shared=True)
    path = tmp_path / "shared.ckpt"
    checkpoint.save(path, checkpoint.Checkpoint(run.config, run.vocab, run.params))
    assert "target_vocab" not in _metadata(path)  # the format older versions wrote and read
    back = checkpoint.load(path)
    assert isinstance(back.vocab, Vocab) and back.vocab == run.vocab
    assert back.vocab.source is back.vocab.target is back.vocab


def test_a_target_vocabulary_of_the_wrong_size_is_refused(tmp_path):
    run = _run(shared=False)
    fewer = Sides(run.vocab.source, Vocab(run.vocab.target.words[1:], run.vocab.target.specials,
                                          "words"))
    path = tmp_path / "bad.ckpt"
    checkpoint.save(path, checkpoint.Checkpoint(run.config, fewer, run.params))
    try:
        checkpoint.load(path)
    except checkpoint.CheckpointError as err:
        assert "generator" in str(err) or "tgt_embed" in str(err)
    else:
        raise AssertionError("a target vocabulary one short of the generator's rows loaded")


def test_weights_file_keeps_both_vocabularies(tmp_path):
    run = _run(shared=False)
    path = tmp_path / "w.safetensors"
    save_weights(path, run.params, run.config, run.vocab.source.tokens,
                 run.vocab.source.specials, run.vocab.target)
    params, _, vocab = load_weights(path)
    assert vocab.source.tokens == run.vocab.source.tokens
    assert vocab.target.tokens == run.vocab.target.tokens
    np.testing.assert_array_equal(params["generator.w"], run.params["generator.w"])


def test_cli_trains_translates_and_evaluates_with_one_vocabulary_per_side(tmp_path,
                                                                        monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.tsv").write_text("".join(f"{s}\t{t}\n" for s, t in PAIRS), encoding="utf-8")
    runner = CliRunner()
    trained = runner.invoke(main, [
        "train", "--pairs", "p.tsv", "--preset", "small", "--d-model", "16", "--heads", "2",
        "--d-ff", "32", "--layers", "1", "--epochs", "40", "--lr", "0.01", "--tokenizer",
        "words", "--quiet", "--no-bleu"])
    assert trained.exit_code == 0, trained.output
    assert "(source) and" in trained.output  # both sizes announced
    ckpt = checkpoint.load("handformer.ckpt")
    assert isinstance(ckpt.vocab, Sides)
    # a source word is not a target word, so the generator has no row for it
    assert "爱" not in ckpt.vocab.target.tokens
    for src, tgt in PAIRS:
        out = runner.invoke(main, ["translate", src])
        assert out.exit_code == 0, out.output
        assert out.output.strip() == tgt
    explained = runner.invoke(main, ["translate", "我 爱 你", "--explain", "--width", "200"])
    assert explained.exit_code == 0 and "“我 爱 你” → “i love you”" in explained.output
    scored = runner.invoke(main, ["evaluate", "--checkpoint", "handformer.ckpt", "--pairs",
                                  "p.tsv", "--beam", "1"])  # greedy, as translate above
    assert scored.exit_code == 0, scored.output
    assert "4/4" in scored.output
