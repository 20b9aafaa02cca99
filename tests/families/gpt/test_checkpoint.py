"""`handformer train --family gpt` writes a checkpoint that `generate` and `walk --family gpt
--checkpoint` read; the other commands refuse it by family; verify --family gpt passes."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.families.gpt.config import GptConfig
from handformer.families.gpt.run import build
from handformer.families.gpt.train import fit
from handformer.train.checkpoint import load

PROMPT = "when you play the game of thrones"


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """The default run, in a folder of its own (train writes ./handformer.gpt.ckpt)."""
    cwd = tmp_path_factory.mktemp("gpt")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        runner = CliRunner()
        out = runner.invoke(main, ["train", "--family", "gpt", "--quiet"])
        assert out.exit_code == 0, out.output
        yield runner, cwd, out


def test_the_checkpoint_holds_what_the_same_training_makes(trained):
    runner, cwd, _ = trained
    saved = load(f"{cwd}/handformer.gpt.ckpt", family="gpt")
    model = build(GptConfig(preset="tutorial"))
    history = fit(model, 400, 0.02)
    assert saved.family == "gpt" and saved.epoch == 400
    assert [h["loss"] for h in saved.history] == history
    assert set(saved.params) == set(model.params)
    for name, value in model.params.items():
        np.testing.assert_array_equal(saved.params[name], value, err_msg=name)


def test_generate_reads_the_checkpoint_and_continues_the_prompt(trained):
    runner, cwd, _ = trained
    out = runner.invoke(main, ["generate", PROMPT])
    assert out.exit_code == 0, out.output
    assert "using handformer.gpt.ckpt" in out.output
    assert out.output.strip().splitlines()[-1] == "you win or you die"
    named = runner.invoke(main, ["generate", "--checkpoint", "handformer.gpt.ckpt", "i drink"])
    assert named.output.strip().splitlines()[-1] == "and i know things"


def test_walk_of_the_checkpoint_is_the_trained_model(trained):
    runner, cwd, _ = trained
    out = runner.invoke(main, ["walk", "--family", "gpt", "--checkpoint", "handformer.gpt.ckpt",
                               "--format", "json", "-o", "walk.json"])
    assert out.exit_code == 0, out.output
    tape = json.loads((cwd / "walk.json").read_text(encoding="utf-8"))
    saved = load(cwd / "handformer.gpt.ckpt", family="gpt")
    assert tape["params"].keys() == saved.params.keys()
    for name, value in saved.params.items():
        np.testing.assert_array_equal(np.asarray(tape["params"][name]), value, err_msg=name)
    text = runner.invoke(main, ["walk", "--family", "gpt", "--checkpoint",
                                "handformer.gpt.ckpt", "--steps", "1,13", "--width", "200"])
    assert "These weights are not random" in text.output
    assert "trained for 400 Adam steps" in text.output  # as `train --family gpt` counts them


@pytest.mark.parametrize("args, words", [
    (["translate", "when you play"], "gpt family, not the transformer family"),
    (["walk"], "gpt family, not the transformer family"),
    (["walk", "--family", "gpt", "--d-model", "8"], "drop --d-model"),
    (["generate", "--lr", "0.1", "you"], "--lr trains a new one"),
])
def test_other_commands_refuse_the_checkpoint_by_family(trained, args, words):
    runner, cwd, _ = trained
    out = runner.invoke(main, [*args, "--checkpoint", "handformer.gpt.ckpt"])
    assert out.exit_code == 2 and words in out.output, out.output


@pytest.mark.parametrize("flag", ["--pairs", "--schedule", "--engine"])
def test_train_names_the_encoder_decoder_options_it_does_not_take(tmp_path, flag):
    value = {"--pairs": "x.tsv", "--schedule": "warmup", "--engine": "torch"}[flag]
    out = CliRunner().invoke(main, ["train", "--family", "gpt", flag, value, "--save",
                                    str(tmp_path / "x.ckpt")])
    assert out.exit_code == 2 and f"does not take {flag}" in out.output
    assert not (tmp_path / "x.ckpt").exists()


def test_verify_compares_every_stage_and_gradient_with_torch():
    pytest.importorskip("torch")
    for args in ([], ["--norm", "post", "--no-tie-embeddings", "--layers", "2"]):
        out = CliRunner().invoke(main, ["verify", "--family", "gpt", *args])
        assert out.exit_code == 0, out.output
        assert "PASS" in out.output and "∂L/∂embed.weight" in out.output
    loose = CliRunner().invoke(main, ["verify", "--family", "gpt", "--tol", "1e-30"])
    assert loose.exit_code == 1 and "FAIL" in loose.output
