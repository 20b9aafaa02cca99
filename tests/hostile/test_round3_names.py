"""User-given names echoed to the terminal go through the terminal-safe writer (issue 45,
item 5: `train --family gpt --save NAME` printed NAME raw, so an ESC sequence in it set the
terminal's title), and an empty file name is refused (item 9: `--save ''` silently wrote
handformer.gpt.ckpt)."""

from __future__ import annotations

import os

import pytest

from handformer.cli import main

TITLE = "\x1b]0;PWNED\x07"  # OSC 0: set the terminal's title
NAME = f"run{TITLE}.ckpt"


def ran(capsys, argv, code=0) -> tuple[str, str]:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert (done.value.code or 0) == code
    return capsys.readouterr()


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def no_escape(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text, repr(text)


@pytest.mark.parametrize("family_args", [["--family", "gpt", "--epochs", "2"],
                                         ["--epochs", "1"]], ids=["gpt", "transformer"])
def test_train_echoes_its_save_name_safely(capsys, here, family_args):
    out, err = ran(capsys, ["train", *family_args, "--quiet", "--save", NAME])
    no_escape(out + err)
    assert "run␛]0;PWNED␇.ckpt" in out + err  # the name, its control characters visible
    assert (here / NAME).is_file()  # the file has the name asked for


def test_the_test_pairs_shown_after_training_are_safe(capsys, here):
    # 100 pairs: a test tenth is held out, and its first pairs are shown after training.
    lines = [f"w{i} x{TITLE}y\tz{i}" for i in range(100)]
    (here / "pairs.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, err = ran(capsys, ["train", "--pairs", "pairs.tsv", "--epochs", "1", "--quiet",
                            "--tokenizer", "words", "--save", "p.ckpt"])
    no_escape(out + err)
    assert "→" in out  # the examples were shown


@pytest.mark.parametrize("argv, flag", [
    (["train", "--family", "gpt", "--save", ""], "--save"),
    (["train", "--save", ""], "--save"),
    (["train", "--plot", ""], "--plot"),
    (["walk", "-o", ""], "--output"),
    (["walk", "--save-weights", ""], "--save-weights"),
    (["exercises", "-o", ""], "--output"),
])
def test_an_empty_file_name_is_refused_in_one_line(capsys, here, argv, flag):
    out, err = ran(capsys, argv, code=2)
    assert err == f"error: {flag} needs a file name, got an empty one\n"
    assert out == ""
    assert os.listdir(here) == []  # no default file written in its place
