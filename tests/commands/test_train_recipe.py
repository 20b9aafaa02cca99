"""`train --dataset` with no flag that shapes the model trains docs/translator.md's recipe
(--preset small --d-model 128 --heads 4 --d-ff 512 --layers 2 --dropout 0.1
--label-smoothing 0.1 --min-count 3, 30 epochs, a 30-minute budget) and says so in its first
line; a model the user chose is kept, and warned about when it is a toy on a big corpus."""

import pytest

from handformer.train import checkpoint
from support.clirun import run_here

pytest.importorskip("hsk_sentences_audio", reason="needs the corpus extra")

QUICK = ["--dataset", "hsk", "--limit", "120", "--epochs", "1", "--no-bleu", "--quiet"]


def trained(folder, *flags):
    out = run_here("train", *QUICK, *flags, cwd=folder)
    assert out.returncode == 0, out.stderr.decode()
    return out.stderr.decode().splitlines(), checkpoint.load(folder / "handformer.ckpt")


@pytest.mark.slow  # about 12 s: an untrained 128-wide model translates the test part
def test_no_model_flags_train_the_recipes_model(tmp_path):
    lines, ckpt = trained(tmp_path)
    first = next(line for line in lines if line.startswith("training "))
    assert first.startswith("training small model (d_model 128, layers 2, heads 4, d_ff 512: "
                            "--dataset's default model, docs/translator.md's recipe, xavier init)")
    assert ", adam peak lr 7.00e-04, " in first  # the recipe's peak, not the factor
    cfg, options = ckpt.config, ckpt.run["options"]
    assert (cfg.d_model, cfg.heads, cfg.d_ff, cfg.encoder_layers, cfg.decoder_layers) == (
        128, 4, 512, 2, 2)
    assert (cfg.dropout, cfg.label_smoothing, options["min_count"]) == (0.1, 0.1, 3)
    assert options["time_budget"] == 30.0
    assert not any(line.startswith("warning") for line in lines)


def test_a_regulariser_or_seed_alone_keeps_the_recipes_model():
    from handformer.commands.train_options import dataset_model

    given = {"preset": None, "d_model": None, "dropout": 0.2, "seed": 3, "heads": None}
    assert dataset_model(given, "hsk:zh-en:1,2,3")
    assert given == {"preset": "small", "d_model": 128, "heads": 4, "d_ff": 512, "layers": 2,
                     "dropout": 0.2, "label_smoothing": 0.1, "seed": 3}
    for chosen in ({"heads": 8}, {"preset": "small"}, {"encoder_layers": 3}):
        assert not dataset_model(dict(chosen), "hsk:zh-en:1,2,3")
    assert not dataset_model({}, "default") and not dataset_model({}, "pairs.tsv")


@pytest.mark.slow  # about 6 s: one epoch of the 1,232 training pairs
def test_a_chosen_model_is_kept_and_a_toy_on_a_big_corpus_warned_about(tmp_path):
    out = run_here("train", "--dataset", "hsk", "--preset", "tutorial", "--epochs", "1",
                   "--no-bleu", "--quiet", "--time-budget", "0", cwd=tmp_path)
    assert out.returncode == 0, out.stderr.decode()
    lines = out.stderr.decode().splitlines()
    assert lines[1].startswith("training tutorial model (d_model 6, layers 1, heads 1/2, d_ff 6, ")
    warnings = [line for line in lines if line.startswith("warning")]
    assert len(warnings) == 1 and "d_model 6" in warnings[0]
    ckpt = checkpoint.load(tmp_path / "handformer.ckpt")
    assert ckpt.config.d_model == 6 and ckpt.config.dropout == 0.0


def test_help_states_the_dataset_defaults(tmp_path):
    text = " ".join(run_here("train", "--help", cwd=tmp_path).stdout.decode().split())
    assert "[default: 30 with --dataset, else 200]" in text
    assert "[default: 3 with --dataset, else 1]" in text
    assert "[default: 30 with --dataset]" in text  # --time-budget
    assert "--d-model 128 --heads 4 --d-ff 512 --layers 2" in text
