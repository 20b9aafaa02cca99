"""`handformer train` from the command line, the default pairs, batching and float32."""

import numpy as np
import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.engine.tape import Tape
from handformer.errors import HandformerError
from handformer.families.transformer.config import preset
from handformer.families.transformer.loss import batch_loss
from handformer.families.transformer.model import forward
from handformer.text import TextError
from handformer.train import checkpoint, loop
from handformer.train.data import (
    default_pairs,
    encode_pairs,
    make_batch,
    pairs_vocab,
    read_pairs,
    split,
)


def test_default_pairs_are_the_tutorial_lines_cut_at_the_first_comma():
    assert default_pairs() == [
        ("I drink and I know things.", "I drink and I know things."),
        ("When you play the game of thrones", "you win or you die."),
        ("The true enemy won't wait out the storm", "He brings the storm."),
    ]
    vocab = pairs_vocab(default_pairs())
    assert (vocab.id("<start>"), vocab.id("<end>"), vocab.id("<pad>")) == (23, 24, 25)


def test_batch_pads_and_masks_by_hand():
    vocab = pairs_vocab([("a b c", "x"), ("b", "y z")])  # a b c x y z <start> <end> <pad>
    batch = make_batch(vocab, encode_pairs(vocab, [("a b c", "x"), ("b", "y z")], 10))
    assert batch.src.tolist() == [[0, 1, 2], [1, 8, 8]]
    assert batch.src_pad.tolist() == [[False, False, False], [False, True, True]]
    assert batch.tgt_in.tolist() == [[6, 3, 8], [6, 4, 5]]
    assert batch.tgt_out.tolist() == [[3, 7, 8], [4, 5, 7]]
    assert batch.weights.tolist() == [[1, 1, 0], [1, 1, 1]]


def test_validation_split_only_when_large_enough():
    rng = np.random.default_rng(0)
    assert split(list(range(19)), rng) == (list(range(19)), [])
    train, valid = split(list(range(40)), rng)
    assert len(valid) == 4 and sorted(train + valid) == list(range(40))


def test_pairs_file(tmp_path):
    good = tmp_path / "p.tsv"
    good.write_text("# comment\n你好 世界\tHello world\n\nthe storm\the brings\n", encoding="utf-8")
    assert read_pairs(good) == [("你好 世界", "Hello world"), ("the storm", "he brings")]
    bad = tmp_path / "bad.tsv"
    bad.write_text("no tab here\n")
    with pytest.raises(TextError, match="bad.tsv:1"):
        read_pairs(bad)
    latin = tmp_path / "latin.tsv"
    latin.write_bytes("caf\xe9\tx\n".encode("latin-1"))
    with pytest.raises(TextError, match="not UTF-8"):
        read_pairs(latin)


def test_float32_is_kept_end_to_end():
    cfg = preset("small", dropout=0.1, label_smoothing=0.1)
    run = loop.start(cfg, default_pairs(), loop.Options(epochs=2, dtype="float32"))
    loop.fit(run)
    assert all(v.dtype == np.float32 for v in run.params.values())
    assert all(v.dtype == np.float32 for v in run.optimizer.state.values())
    vocab = run.vocab
    batch = make_batch(vocab, run.train, "float32")
    result = batch_loss(run.params, cfg, batch)
    assert all(g.dtype == np.float32 for g in result.grads.values())


@pytest.mark.parametrize("fused", [True, False], ids=["fused", "step by step"])
def test_float32_training_tape_makes_no_float64_value_cache_or_gradient(fused):
    # every step's value, what it keeps for the reverse pass and every gradient (of steps as
    # of parameters), with the padding masks, dropout and label smoothing switched on; the
    # fused tape is training's (families/transformer/loss.py), the step-by-step one verify's
    cfg = preset("small", dropout=0.1, label_smoothing=0.1)
    run = loop.start(cfg, default_pairs(), loop.Options(epochs=1, dtype="float32"))
    batch = make_batch(run.vocab, run.train, "float32")
    assert batch.src_pad.any() and batch.tgt_pad.any()
    tape = Tape(run.params, record=False, dropout_rng=np.random.default_rng(0), fused=fused)
    logits = forward(tape, cfg, batch.src, batch.tgt_in, batch.src_pad, batch.tgt_pad, probs=False)
    tape.run("loss", "cross_entropy", [logits], {"targets": batch.tgt_out,
             "weights": batch.weights, "smoothing": cfg.label_smoothing})
    grads = tape.backward("loss")
    kept = [s.value for s in tape.steps] + [c for s in tape.steps for c in
                                           (s.cache if isinstance(s.cache, tuple) else [s.cache])]
    floats = [a for a in [*kept, *grads.values()] if np.asarray(a).dtype.kind == "f"]
    assert len(grads) > len(run.params) and floats
    assert {np.asarray(a).dtype for a in floats} == {np.dtype(np.float32)}


def test_warmup_schedule_and_sgd_also_train():
    opts = loop.Options(epochs=10, optimizer="sgd", schedule="warmup", warmup=2, lr=1.0, clip=1.0)
    run = loop.start(preset("tutorial"), default_pairs(), opts)
    before = loop.evaluate(run.params, run.config, run.vocab, run.train)["loss"]
    run = loop.fit(run)
    after = loop.evaluate(run.params, run.config, run.vocab, run.train)["loss"]
    assert run.optimizer.step_count == 10 and len(run.history) == 10
    assert after < 0.85 * before  # the loss falls: the schedule and SGD do train


def test_bad_options_are_refused():
    with pytest.raises(HandformerError, match="epochs, batch_size and warmup must be at least 1"):
        loop.start(preset("tutorial"), default_pairs(), loop.Options(epochs=0))


def test_cli_train_reaches_100_percent_then_translates(tmp_path, monkeypatch):
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, ["train", "--plot", "curve.svg"])
    assert result.exit_code == 0, result.output
    assert "token accuracy 100.0%" in result.output
    assert "exact match 100.0%" in result.output
    assert 'translate --checkpoint handformer.ckpt "when you play the game of thrones"' in \
        result.output  # trained on the tutorial's lines: its own sentence is suggested
    history = checkpoint.load("handformer.ckpt").history
    assert history[-1]["accuracy"] == 1.0 and history[-1]["loss"] < history[0]["loss"] / 100
    assert open("curve.svg").read().startswith("<?xml")
    out = runner.invoke(main, ["translate", "when you play the game of thrones"])
    assert out.exit_code == 0 and out.output.strip() == "you win or you die"
    out = runner.invoke(main, ["translate", "--beam", "4", "--length-penalty", "0.6",
                               "the true enemy won't wait out the storm"])
    assert out.output.strip() == "he brings the storm"


def test_cli_errors_exit_2(tmp_path, monkeypatch):
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, ["translate", "when you play"])
    assert result.exit_code == 2 and "does not exist" in result.output
    result = runner.invoke(main, ["train", "--plot", "curve.pdf"])
    assert result.exit_code == 2 and "svg" in result.output
    result = runner.invoke(main, ["train", "--pairs", "missing.tsv"])
    assert result.exit_code == 2 and "missing.tsv" in result.output


def test_train_suggests_a_sentence_of_its_own_pairs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.tsv").write_text("the storm\the brings\ngame of thrones\twin or die\n")
    result = CliRunner().invoke(main, ["train", "--pairs", "p.tsv", "--epochs", "1", "--quiet"])
    assert result.exit_code == 0, result.output
    assert 'translate --checkpoint handformer.ckpt "the storm"' in result.output


def test_the_default_schedule_peaks_at_7e_4_for_d_model_128():
    """resolve_schedule: warm-up one epoch of steps (100-4000), peak 7e-4·√(128/d_model);
    the peak by the paper's formula by hand: factor · d^-0.5 · warmup^-0.5."""
    for d_model, pairs, warmup in ((128, 64 * 828, 828), (512, 64 * 10, 100), (128, 64 * 9000, 4000)):
        o = loop.resolve_schedule(loop.Options(schedule="warmup", lr=None, warmup=None,
                                               batch_size=64), d_model, pairs)
        assert o.warmup == warmup
        peak = o.lr * d_model ** -0.5 * warmup ** -0.5
        assert peak == pytest.approx(7e-4 * (128 / d_model) ** 0.5, rel=1e-12)
    constant = loop.resolve_schedule(loop.Options(lr=None), 128, 1000)
    assert constant.lr == 0.01 and constant.warmup == 4000
