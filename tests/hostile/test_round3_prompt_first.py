"""`generate` checks its prompt before it trains (issue 45, item 7): an unknown word was
refused only after the 400 default Adam steps."""

from __future__ import annotations

import pytest

from handformer.cli import main
from handformer.families.gpt import train as gpt_train


@pytest.fixture
def no_training(monkeypatch):
    """Training is a failure here: the refusal must come first."""
    def fit(*args, **kwargs):
        raise AssertionError("trained before the prompt was checked")

    monkeypatch.setattr(gpt_train, "fit", fit)


def refused(capsys, argv) -> str:
    with pytest.raises(SystemExit) as done:
        main(argv)
    out, err = capsys.readouterr()
    assert done.value.code == 2 and out == "", (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def test_an_unknown_word_is_refused_before_any_training(capsys, no_training):
    line = refused(capsys, ["generate", "you win dragons"])
    assert "'dragons'" in line and "prompt" in line and "trained" not in line


def test_a_prompt_the_model_cannot_continue_is_refused_before_training(capsys, no_training):
    # The tutorial's max_len is 64: <start> and 63 words fill it, leaving no room to add one.
    line = refused(capsys, ["generate", " ".join(["you"] * 63)])
    assert "63 tokens" in line and "at most 62" in line


def test_a_prompt_with_room_for_one_token_still_generates(capsys):
    with pytest.raises(SystemExit) as done:
        main(["generate", " ".join(["you"] * 62), "--train-steps", "1", "--max-new", "5"])
    assert (done.value.code or 0) == 0
    assert len(capsys.readouterr().out.split()) == 1  # 64 - (1 + 62): room for one new token
