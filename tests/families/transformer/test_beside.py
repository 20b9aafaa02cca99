"""Random weights beside trained ones (walk --beside-trained, and a checkpoint's walk): the
numbers shown for the other weights are the independent reference model's on those weights,
the copy learns the corpus, and the walk's own column is the walk's."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from handformer import pipeline
from handformer.families.transformer import run as engine
from handformer.families.transformer.beside import EPOCHS, PATTERN, train_copy
from handformer.families.transformer.config import preset
from handformer.text import TUTORIAL_SRC, TUTORIAL_TGT
from reference.check import close, sizes_of
from reference.model import Reference


@pytest.fixture(scope="module")
def walked():
    return pipeline.run({"beside_trained": True}).tape


def reference(cfg, params, meta) -> Reference:
    ref = Reference(sizes_of(cfg), {k: v.copy() for k, v in params.items()})
    ref.run(meta["src"]["ids"], meta["tgt"]["ids"], meta["target"]["ids"])
    return ref


def test_the_trained_copys_numbers_are_the_reference_models_on_its_weights(walked):
    cfg = preset("tutorial")
    params, losses, encoded = train_copy(engine.setup(cfg))
    beside, meta = walked.meta["beside"], walked.meta
    ref = reference(cfg, params, meta)
    close(beside["pattern"], ref.values[PATTERN.replace(".head.0", "")][0], "pattern")
    probs = ref.values["generator.probs"]
    targets = meta["target"]["ids"]
    close(beside["p_target"], [probs[t, i] for t, i in enumerate(targets)], "p(target)")
    assert beside["picked"] == [int(i) for i in probs.argmax(axis=-1)]
    assert beside["loss"] == [losses[0], losses[-1]] and len(losses) == EPOCHS
    assert beside["pairs"] == len(encoded) == 3 and beside["seen"] is True


def test_the_copy_learns_the_corpus_and_the_walk_keeps_its_random_weights(walked):
    beside = walked.meta["beside"]
    first, last = beside["loss"]
    assert last < first / 100  # 200 epochs of Adam on three pairs: learnt by heart
    assert min(beside["p_target"]) > 0.9
    fresh = engine.setup(preset("tutorial"))  # the walk's own weights are untouched
    for name, value in fresh.params.items():
        assert np.array_equal(walked.params[name], value), name
    probs = walked["generator.probs"]
    assert max(probs[t, i] for t, i in enumerate(walked.meta["target"]["ids"])) < 0.2


def test_the_section_shows_both_columns(walked):
    from handformer import narrate

    (section,) = [s for s in narrate.build(walked) if s.id == "beside"]
    random, _, trained, p = section.equation
    close(random.value, walked[PATTERN], "the random pattern is the walk's")
    close(trained.value, walked.meta["beside"]["pattern"], "the trained pattern")
    targets = walked.meta["target"]["ids"]
    close(p.value[0], [walked["generator.probs"][t, i] for t, i in enumerate(targets)], "row 0")
    close(p.value[1], walked.meta["beside"]["p_target"], "row 1")
    assert p.rows == ["θ₀", "θ"] and len(p.cols) == len(targets)


def test_another_sentence_is_not_one_the_copy_saw():
    tape = pipeline.run({"beside_trained": True, "src": "the storm", "tgt": "you die"}).tape
    assert tape.meta["beside"]["seen"] is False


@pytest.mark.process
def test_a_checkpoints_walk_shows_its_untrained_weights_beside(tmp_path):
    path = tmp_path / "t.ckpt"
    subprocess.run([sys.executable, "-m", "handformer", "train", "--epochs", "30", "--quiet",
                    "--save", str(path)], check=True, capture_output=True)
    tape = pipeline.run({"checkpoint": str(path)}).tape
    beside = tape.meta["beside"]
    assert beside["label"] == "untrained" and beside["epochs"] == 30
    close(beside["p_target"], tape.meta["trained"]["untrained_p_target"], "the initial weights")
    s = engine.setup_from_checkpoint(str(path))
    ref = reference(s.config, s.trained["initial"], tape.meta)
    close(beside["pattern"], ref.values[PATTERN.replace(".head.0", "")][0], "pattern")
    with pytest.raises(Exception, match="drop --beside-trained"):
        pipeline.run({"checkpoint": str(path), "beside_trained": True})


def test_the_comparison_survives_a_json_tape_and_a_damaged_one_is_refused(walked, tmp_path):
    from handformer.files.tape_json import TapeFormatError, dumps, loads

    data = json.loads(dumps(walked))
    assert loads(json.dumps(data)).meta["beside"] == walked.meta["beside"]
    data["beside"]["pattern"] = data["beside"]["pattern"][:-1]
    with pytest.raises(TapeFormatError, match="beside.pattern"):
        loads(json.dumps(data))


@pytest.mark.process
def test_the_cli_draws_it_in_both_languages():
    for lang, title in (("en", "Random weights beside trained weights"),
                        ("zh", "随机权重与训练后的权重并排")):
        out = subprocess.run([sys.executable, "-m", "handformer", "walk", "--beside-trained",
                              "--lang", lang, "--src", TUTORIAL_SRC, "--tgt", TUTORIAL_TGT],
                             check=True, capture_output=True, text=True).stdout
        assert title in out and "you win or you die <end>" in out


def test_families_that_cannot_train_a_copy_refuse_the_flag(monkeypatch):
    """Every family takes the flag today (bert: its pretrained weights beside random ones), so
    a family without it is made here by switching the flag off."""
    from handformer.errors import HandformerError
    from handformer.families import registry

    monkeypatch.setattr(registry.get("bert"), "beside_trained", False)
    with pytest.raises(HandformerError, match="the bert family does not train a copy"):
        pipeline.run({"family": "bert", "beside_trained": True})
