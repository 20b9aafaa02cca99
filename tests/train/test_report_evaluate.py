"""`handformer evaluate`: its loss and perplexity against a per-sentence computation by hand."""

import math

import numpy as np
import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.engine.tape import Tape
from handformer.families.transformer.config import preset
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
                                       "--pairs", str(pairs_file), "--beam", "1"])
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


CAPITALISED = [("when you play the game of thrones", "You win or you die."),
               ("the true enemy won't wait out the storm", "He brings the storm."),
               ("when you play the game", "you win")]


def printed_scores(stdout: str) -> tuple[float, float, float]:
    """(BLEU cased, chrF2, BLEU lower-cased) from evaluate's 'scores' line."""
    import re

    (line,) = [row for row in stdout.splitlines() if row.startswith("scores")]
    found = re.fullmatch(r"scores {10}BLEU ([\d.]+) \(sacrebleu, cased, 13a\) · chrF2 ([\d.]+) "
                         r"· BLEU lower-cased ([\d.]+)", line)
    assert found, line
    return tuple(map(float, found.groups()))


@pytest.mark.parametrize("beam", [1, 2])
def test_evaluate_scores_are_sacrebleus_own_on_the_written_translations(trained, tmp_path, beam):
    import sacrebleu

    from support.clirun import run_here

    (tmp_path / "p.tsv").write_text("".join(f"{s}\t{t}\n" for s, t in CAPITALISED), "utf-8")
    out = run_here("evaluate", "--checkpoint", trained, "--pairs", "p.tsv", "--beam", beam,
                   "--output", "hyps.txt", cwd=tmp_path)
    assert out.returncode == 0, out.stderr.decode()
    hyps = (tmp_path / "hyps.txt").read_text("utf-8").split("\n")
    assert hyps[-1] == "" and len(hyps) == 4  # one line per pair, each ended
    refs = [[t for _, t in CAPITALISED]]
    bleu = sacrebleu.corpus_bleu(hyps[:3], refs).score
    lower = sacrebleu.corpus_bleu(hyps[:3], refs, lowercase=True).score
    chrf = sacrebleu.corpus_chrf(hyps[:3], refs).score
    assert printed_scores(out.stdout.decode()) == (round(bleu, 2), round(chrf, 2), round(lower, 2))
    assert 0 < bleu < lower  # the model writes lower case: the cased score is the lower one


def evaluated(trained, folder, *flags) -> tuple[str, str]:
    """evaluate's stdout and the translations it wrote, on CAPITALISED."""
    from support.clirun import run_here

    (folder / "p.tsv").write_text("".join(f"{s}\t{t}\n" for s, t in CAPITALISED), "utf-8")
    out = run_here("evaluate", "--checkpoint", trained, "--pairs", "p.tsv", "--output",
                   "hyps.txt", *flags, cwd=folder)
    assert out.returncode == 0, out.stderr.decode()
    return out.stdout.decode(), (folder / "hyps.txt").read_text("utf-8")


def test_evaluate_beam_decodes_as_translate_does(trained, tmp_path):
    """evaluate --beam N takes translate's length penalty, by default and when given: one
    search, not two."""
    from handformer.commands.translate import DEFAULT_ALPHA
    from handformer.server.training import TranslateRequest
    from support.clirun import run_here

    assert DEFAULT_ALPHA == TranslateRequest.alpha == 1.2  # one α: translate, evaluate, the app
    stdout, _ = evaluated(trained, tmp_path, "--beam", 3)
    assert "(1/3, beam 3, length penalty 1.2 decoding)" in stdout
    by_default, _ = evaluated(trained, tmp_path)  # evaluate's own default: beam 4, translate's α
    assert "beam 4, length penalty 1.2 decoding)" in by_default
    _, plain = evaluated(trained, tmp_path, "--beam", 3, "--length-penalty", 0)
    _, long = evaluated(trained, tmp_path, "--beam", 3, "--length-penalty", 2)
    assert long != plain  # α changes this toy's second translation: the case can fail
    translated = [run_here("translate", "--checkpoint", trained, "--beam", 3,
                           "--length-penalty", 2, s, cwd=tmp_path).stdout.decode()
                  for s, _ in CAPITALISED]
    assert long == "".join(translated)


def test_evaluate_output_may_not_replace_its_inputs(trained, tmp_path):
    from support.clirun import run_here

    (tmp_path / "p.tsv").write_text("".join(f"{s}\t{t}\n" for s, t in CAPITALISED), "utf-8")
    before = (tmp_path / "p.tsv").read_bytes()
    out = run_here("evaluate", "--checkpoint", trained, "--pairs", "p.tsv", "--output", "p.tsv",
                   cwd=tmp_path)
    assert out.returncode == 2 and "--pairs" in out.stderr.decode()
    assert (tmp_path / "p.tsv").read_bytes() == before


def test_epoch_line_labels_cased_bleu_chrf_and_lower_cased_bleu():
    from handformer.train.report import epoch_line

    stats = {"epoch": 2, "loss": 1.5, "accuracy": 0.5, "val_loss": 1.75, "val_accuracy": 0.25,
             "val_bleu": 12.345, "val_chrf": 30.0, "val_bleu_lower": 15.0}
    assert epoch_line(stats, 10, tokenize="zh").endswith(
        "  BLEU 12.35 (sacrebleu, cased, zh) · chrF2 30.00 · BLEU lower-cased 15.00")
