"""`handformer evaluate`: its loss and perplexity against a per-sentence computation by hand."""

import math

import numpy as np
import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.config import preset
from handformer.engine.tape import Tape
from handformer.families.transformer.model import forward
from handformer.train import checkpoint, loop
from handformer.train.data import default_pairs


def unbatched_loss(ckpt, pairs):
    """Mean −log p(target) over every target token, one sentence at a time, no padding."""
    vocab, total, count, right = ckpt.vocab, 0.0, 0, 0
    for src, tgt in pairs:
        out = vocab.encode(tgt) + [vocab.id("<end>")]
        tape = Tape(ckpt.params, record=False)
        forward(tape, ckpt.config, np.array(vocab.encode(src)),
                np.array([vocab.id("<start>")] + out[:-1]))
        p = tape["generator.probs"]
        total -= sum(math.log(p[t, w]) for t, w in enumerate(out))
        count += len(out)
        right += int((p.argmax(axis=-1) == out).sum())
    return total / count, right / count


def greedy(ckpt, src: str, limit: int = 30) -> list[str]:
    """Decoding by hand: from <start>, the whole prefix through the model again at each step,
    the argmax of its last position appended, until <end> (None if it never comes)."""
    vocab = ckpt.vocab
    out = [vocab.id("<start>")]
    for _ in range(limit):
        tape = Tape(ckpt.params, record=False)
        forward(tape, ckpt.config, np.array(vocab.encode(src)), np.array(out))
        out.append(int(tape["generator.probs"][-1].argmax()))
        if out[-1] == vocab.id("<end>"):
            return [vocab.tokens[i] for i in out[1:-1]]
    return None


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    path = tmp_path_factory.mktemp("eval") / "m.ckpt"
    loop.fit(loop.start(preset("tutorial"), default_pairs(), loop.Options(epochs=60)), path)
    return path


def metrics(output):
    return {line[:16].strip(): line[16:].split()[0] for line in output.splitlines()}


def test_evaluate_reports_loss_perplexity_accuracy_exact_match(trained, tmp_path):
    pairs = default_pairs()
    pairs_file = tmp_path / "p.tsv"
    pairs_file.write_text("".join(f"{s}\t{t}\n" for s, t in pairs), encoding="utf-8")
    result = CliRunner().invoke(main, ["evaluate", "--checkpoint", str(trained),
                                       "--pairs", str(pairs_file)])
    assert result.exit_code == 0, result.output
    m = metrics(result.output)
    loss, accuracy = unbatched_loss(checkpoint.load(trained), pairs)
    assert float(m["loss"]) == pytest.approx(loss, abs=5e-5)
    assert float(m["perplexity"]) == pytest.approx(math.exp(loss), rel=1e-4)
    assert float(m["token accuracy"].rstrip("%")) == pytest.approx(100 * accuracy, abs=0.05)
    assert m["pairs"] == "3"
    ckpt = checkpoint.load(trained)
    right = sum(greedy(ckpt, src) == ckpt.vocab.tokenize(tgt) for src, tgt in pairs)
    assert 0 < right < 3  # neither extreme: a figure that could be wrong either way
    assert f"exact match     {100 * right / 3:.1f}%  ({right}/3, greedy decoding)" in (
        result.output.splitlines())


def test_evaluate_refuses_unknown_words(trained, tmp_path):
    pairs_file = tmp_path / "q.tsv"
    pairs_file.write_text("winter is coming\tyou die\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["evaluate", "--checkpoint", str(trained),
                                       "--pairs", str(pairs_file)])
    assert result.exit_code == 2 and "winter" in result.output
