"""The end-of-run summary of `train`: a large corpus's training figures come from a fixed subset
of its training pairs (their number stated), the validation figures from the last epoch; a
small corpus's from every training pair, as before."""

import re

from click.testing import CliRunner

from handformer.cli import main
from handformer.train import checkpoint, loop, report
from handformer.train.data import encode_pairs, read_pairs

WORDS = ["storm", "night", "winter", "sword", "king", "wolf", "river", "stone"]


def _pairs_file(tmp_path, n: int):
    lines = [f"the {WORDS[i % 8]} {WORDS[(i // 8) % 8]} {i}\t{WORDS[(i * 3) % 8]} {i}"
             for i in range(n)]
    path = tmp_path / "p.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _train(path):
    return CliRunner().invoke(main, [
        "train", "--pairs", str(path), "--preset", "small", "--d-model", "8", "--heads", "2",
        "--d-ff", "16", "--layers", "1", "--epochs", "2", "--lr", "0.01", "--tokenizer",
        "words", "--quiet", "--no-bleu", "--save", str(path.with_suffix(".ckpt"))])


def _figures(line: str) -> tuple[float, float, float]:
    loss, acc, exact = re.search(r"training loss ([\d.]+), token accuracy ([\d.]+)%, exact "
                                 r"match ([\d.]+)%", line).groups()
    return float(loss), float(acc), float(exact)


def test_a_large_corpus_is_summed_up_on_a_stated_subset(tmp_path, monkeypatch):
    monkeypatch.setattr(report, "SUMMARY_PAIRS", 7)
    path = _pairs_file(tmp_path, 60)
    result = _train(path)
    assert result.exit_code == 0, result.output
    ckpt = checkpoint.load(path.with_suffix(".ckpt"))
    train = loop.held_out(ckpt, read_pairs(path), "train")
    assert len(train) > 7
    line = next(x for x in result.output.splitlines() if x.startswith("after"))
    assert f"on the first 7 of the {len(train)} training pairs" in line
    # the figures are those of the first 7 training pairs, evaluated here on their own
    m = loop.evaluate(ckpt.params, ckpt.config, ckpt.vocab,
                      encode_pairs(ckpt.vocab, train[:7], ckpt.config.max_len),
                      dtype="float32")
    assert _figures(line) == (round(m["loss"], 4), round(100 * m["accuracy"], 1),
                              round(100 * m["exact"], 1))
    # the validation line: the last epoch's figures (every validation pair, the same weights)
    valid = next(x for x in result.output.splitlines() if x.startswith("validation"))
    assert f"loss {ckpt.history[-1]['val_loss']:.4f}" in valid
    full = loop.evaluate(ckpt.params, ckpt.config, ckpt.vocab,
                         encode_pairs(ckpt.vocab, loop.held_out(ckpt, read_pairs(path), "valid"),
                                      ckpt.config.max_len), dtype="float32")
    assert f"loss {full['loss']:.4f}" in valid


def test_a_small_corpus_is_summed_up_on_every_training_pair(tmp_path):
    path = _pairs_file(tmp_path, 30)
    result = _train(path)
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("after"))
    assert line.startswith("after 2 epochs: training loss") and "of the" not in line
    ckpt = checkpoint.load(path.with_suffix(".ckpt"))
    train = loop.held_out(ckpt, read_pairs(path), "train")
    m = loop.evaluate(ckpt.params, ckpt.config, ckpt.vocab,
                      encode_pairs(ckpt.vocab, train, ckpt.config.max_len), dtype="float32")
    assert _figures(line)[0] == round(m["loss"], 4)
