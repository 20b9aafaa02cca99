"""`handformer train`'s first lines: the peak learning rate, the number type and which default
chose it, and a warning when a real corpus meets a toy-sized model."""

import re

import pytest

from support.clirun import run_here

TINY = ["--preset", "small", "--d-model", "8", "--heads", "2", "--d-ff", "8", "--layers", "1",
        "--epochs", "1", "--no-bleu", "--quiet"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """1,500 made-up pairs in a file (1,200 for training): a real corpus by size, quick to
    train on."""
    folder = tmp_path_factory.mktemp("corpus")
    words = ["red", "blue", "cat", "dog", "runs", "sleeps", "big", "small"]
    lines = [f"{words[i % 8]} {words[i // 8 % 8]} {words[i // 64 % 8]} {i}\t"
             f"{words[i // 64 % 8]} {words[i % 8]} {i}\n" for i in range(1500)]
    (folder / "pairs.tsv").write_text("".join(lines), "utf-8")
    return folder


def stderr_lines(out) -> list[str]:
    assert out.returncode == 0, out.stderr.decode()
    return out.stderr.decode().splitlines()


def test_first_line_gives_the_peak_rate_and_the_default_number_type(corpus):
    lines = stderr_lines(run_here("train", "--pairs", "pairs.tsv", "--schedule", "warmup",
                                  *TINY, cwd=corpus))
    first, warning, schedule = lines[:3]
    # docs/translator.md: the peak is 7e-4 · √(128 / d_model), here 7e-4 · 4
    assert ", adam peak lr 2.80e-03, float32 (the default with --dataset or --pairs; " in first
    factor, warmup = re.search(r"lr factor ([\d.]+), (\d+) warm-up steps", schedule).groups()
    by_hand = float(factor) * 8 ** -0.5 * int(warmup) ** -0.5  # the paper's rate at the warm-up's end
    assert by_hand == pytest.approx(2.8e-3, rel=1e-3)
    assert warning.startswith("warning: a d_model 8 model learns little from ")
    assert "--d-model 128" in warning


def test_a_given_number_type_is_printed_bare(corpus):
    first = stderr_lines(run_here("train", "--pairs", "pairs.tsv", "--dtype", "float32", *TINY,
                                  cwd=corpus))[0]
    assert first.endswith(", adam lr 0.01, float32")


def test_a_small_corpus_or_the_tutorials_pairs_are_not_warned_about(corpus, tmp_path):
    small = stderr_lines(run_here("train", "--pairs", "pairs.tsv", "--limit", "200", *TINY,
                                  cwd=corpus))
    assert not any(line.startswith("warning") for line in small)
    tutorial = stderr_lines(run_here("train", "--epochs", "1", "--quiet", cwd=tmp_path))
    assert tutorial[0].endswith(", adam lr 0.01, float64 (the default for the tutorial's pairs)")
    assert not any(line.startswith("warning") for line in tutorial)


def test_help_says_the_real_dtype_default(tmp_path):
    out = run_here("train", "--help", cwd=tmp_path)
    text = " ".join(out.stdout.decode().split())  # as read, whatever the wrapping
    assert ("--dtype [float64|float32] number type, kept end to end [default: float64 for the "
            "tutorial's pairs, float32 with --dataset or --pairs]") in text
