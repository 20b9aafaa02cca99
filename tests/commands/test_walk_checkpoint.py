"""`walk --checkpoint`: the model `handformer train` saved, walked with its own config and words."""

import numpy as np
import pytest
from click.testing import CliRunner

import handformer
from handformer.cli import main
from handformer.train import checkpoint


@pytest.fixture(scope="module")
def tutorial_ckpt(tmp_path_factory):
    path = tmp_path_factory.mktemp("ckpt") / "handformer.ckpt"
    result = CliRunner().invoke(main, ["train", "--quiet", "--save", str(path)])
    assert result.exit_code == 0, result.output
    return path


def test_trained_tutorial_model_predicts_you_at_step_13(tutorial_ckpt):
    tape = handformer.walk(checkpoint=str(tutorial_ckpt))
    vocab = tape.meta["vocab"]
    # the tutorial's target sentence is "you win or you die": after <start> comes "you"
    assert vocab[int(np.argmax(tape["generator.probs"][0]))] == "you"
    assert "<pad>" in vocab  # the checkpoint's own vocabulary, not the walk's 25 words
    before = tape.meta["trained"]["untrained_p_target"][0]
    after = tape["generator.probs"][0, vocab.index("you")]
    assert before < 0.2 < 0.9 < after


def test_cli_walk_checkpoint_narrates_before_and_after(tutorial_ckpt):
    result = CliRunner().invoke(main, ["walk", "--checkpoint", str(tutorial_ckpt),
                                       "--steps", "13", "--width", "200"])
    assert result.exit_code == 0, result.output
    assert "After “<start>” the model picks “you”" in result.output
    assert "Before training" in result.output and "trained for 200 epochs" in result.output


def test_checkpoint_of_another_config_and_vocabulary(tmp_path):
    pairs = tmp_path / "p.tsv"
    pairs.write_text("the storm comes\tder sturm kommt\nthe night falls\tdie nacht fällt\n",
                     encoding="utf-8")
    path = tmp_path / "small.ckpt"
    result = CliRunner().invoke(main, [
        "train", "--quiet", "--pairs", str(pairs), "--preset", "small", "--d-model", "16",
        "--heads", "2", "--epochs", "3", "--save", str(path)])
    assert result.exit_code == 0, result.output
    ckpt = checkpoint.load(path)
    tape = handformer.walk(src="the night falls", tgt="die nacht", checkpoint=str(path))
    assert tape.meta["config"]["d_model"] == 16 and tape.meta["config"]["heads"] == 2
    # one vocabulary per side (a --pairs corpus): the tape's "vocab" is the target's
    assert tape.meta["vocab"] == ckpt.vocab.target.tokens
    assert tape.meta["src_vocab"] == ckpt.vocab.source.tokens
    assert "der" not in ckpt.vocab.source.words and "the" not in ckpt.vocab.target.words
    assert tape.meta["dataset"] == []  # a file path stored in a checkpoint is never opened
    # the walk's logits equal torch.nn.Transformer's on the saved weights
    from handformer.families.transformer.torch_ref import TorchReference

    ref = TorchReference(ckpt.params, ckpt.config)
    src = [ckpt.vocab.source.id(w) for w in ("the", "night", "falls")]
    tgt = [ckpt.vocab.target.id(w) for w in ("<start>", "die", "nacht")]
    want = ref.stages(np.array(src), np.array(tgt))["generator.logits"]
    np.testing.assert_allclose(tape["generator.logits"], want, atol=1e-10)


def test_checkpoint_refuses_flags_that_set_the_model(tutorial_ckpt):
    result = CliRunner().invoke(main, ["walk", "--checkpoint", str(tutorial_ckpt),
                                       "--preset", "small"])
    assert result.exit_code == 2
    assert "drop --preset" in result.output


def test_walk_of_a_model_with_one_vocabulary_per_side_names_each_side(tmp_path):
    pairs = tmp_path / "p.tsv"
    pairs.write_text("the storm comes\tder sturm kommt\nthe night falls\tdie nacht fällt\n"
                     "a night\teine nacht\n", encoding="utf-8")
    path = tmp_path / "sides.ckpt"
    result = CliRunner().invoke(main, [
        "train", "--quiet", "--pairs", str(pairs), "--preset", "small", "--d-model", "16",
        "--heads", "2", "--epochs", "2", "--save", str(path)])
    assert result.exit_code == 0, result.output
    source, target = checkpoint.load(path).vocab.source, checkpoint.load(path).vocab.target
    assert len(source) != len(target)  # 6 words + 4 specials, 7 + 4: labels must not mix
    walked = CliRunner().invoke(main, [
        "walk", "--checkpoint", str(path), "--src", "the night falls", "--tgt", "die nacht",
        "--backward", "--format", "markdown", "--width", "300"])
    assert walked.exit_code == 0, walked.output
    text = walked.output
    assert f"a vocabulary of {len(source)} (source) and {len(target)} (target) tokens" in text
    assert f"the source's {len(source)} tokens for the encoder, the target's {len(target)}" in text
    assert f"({len(source)}×16)" in text and f"({len(target)}×16)" in text  # each table's rows
    # the source embedding's gradient rows are the source's words with the source's ids
    assert f"night ({source.id('night')})" in text and f"nacht ({target.id('nacht')})" in text
    # an exercise asking a source word's id: the answer is its id in the source's vocabulary
    from handformer.exercises.kinds_embed import token_id

    tape = handformer.walk(src="the night falls", tgt="die nacht", checkpoint=str(path))
    asked = [q for q in (token_id(tape, np.random.default_rng(seed)) for seed in range(40))
             if q is not None and q.step == "src.ids"]
    assert asked
    for q in asked:
        assert q.answer == source.id(q.words["word"])
