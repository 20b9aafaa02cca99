"""Training on the tutorial's three lines, then generating: greedy decoding continues the
tutorial's prompt with its answer; sampling is the same for the same seed; the command line."""

import numpy as np
import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.engine.tape import Tape
from handformer.families.gpt.config import GptConfig
from handformer.families.gpt.model import forward
from handformer.families.gpt.run import build
from handformer.families.gpt.train import fit, generate
from handformer.text import START


@pytest.fixture(scope="module")
def trained():
    model = build(GptConfig(preset="tutorial"))
    history = fit(model, 400, 0.02)
    return model, history


def test_training_drives_the_loss_down(trained):
    _, history = trained
    assert history[0] > 3.0 and history[-1] < 0.2


@pytest.mark.parametrize("prompt, answer", [
    ("when you play the game of thrones", "you win or you die"),
    ("i drink", "and i know things")])
def test_greedy_generation_continues_the_lines_it_learned(trained, prompt, answer):
    assert " ".join(generate(trained[0], prompt).tokens) == answer


def test_greedy_picks_the_most_likely_token_of_the_last_position():
    model = build(GptConfig(preset="tutorial"))  # untrained: any pick is as good as another
    ids = [model.vocab.id(START), *model.vocab.encode("when you")]
    tape = Tape(model.params, record=False)
    forward(tape, model.config, ids)
    p = tape["generator.probs"][-1]
    first = generate(model, "when you", max_new=1)
    best = model.vocab.tokens[int(np.argmax(p))]
    if best == "<end>":  # <end> ends the text: nothing is added
        assert first.tokens == []
    else:
        assert first.tokens == [best]
        assert first.probs == [pytest.approx(float(p.max()), abs=1e-15)]


def test_sampling_is_the_same_for_the_same_seed(trained):
    model = trained[0]
    runs = [generate(model, "the", temperature=2.0, top_k=5, seed=s).tokens for s in (7, 7, 8)]
    assert runs[0] == runs[1]


def test_the_generate_command():
    out = CliRunner().invoke(main, ["generate", "when you play the game of thrones"])
    assert out.exit_code == 0, out.output
    assert out.output.strip().splitlines()[-1] == "you win or you die"
    bad = CliRunner().invoke(main, ["generate", "hello"])
    assert bad.exit_code == 2 and "'hello'" in bad.output
