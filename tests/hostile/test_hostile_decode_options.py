"""Class "numbers", decoding: float options of translate and generate that are finite yet
overflow what they feed (``((5 + L) / 6)^α`` for --length-penalty 1e308, ``log p / T`` for
--temperature 1e-320, Adam at --lr 1e308).

Every case calls ``main(argv)`` in-process (support.clirun.run_here): the process boundary is
not what these cases test.
"""

import math

import pytest

from support.clirun import refused_unchanged_here as refused_unchanged
from support.clirun import run_here as run

GNMT_ALPHA_MAX = 10.0  # the bound docs/security.md states


@pytest.mark.parametrize("alpha,word", [("1e308", "at most 10"), ("-1e308", "at least -10"),
                                        ("11", "at most 10"), ("inf", "finite")])
def test_a_length_penalty_that_would_overflow_is_refused(made, tmp_path, alpha, word):
    (tmp_path / "c.ckpt").write_bytes((made / "c.ckpt").read_bytes())
    refused_unchanged(tmp_path, "translate", "--checkpoint", "c.ckpt", "--beam", "2",
                      "--length-penalty", alpha, "you win", words=["--length-penalty", word])


@pytest.mark.parametrize("alpha", [GNMT_ALPHA_MAX, -GNMT_ALPHA_MAX])
def test_the_largest_length_penalty_still_decodes(made, tmp_path, alpha):
    # the bound leaves room: at max_len (16,384) tokens the penalty is still a finite, non-zero
    # float, computed here by Python's own power
    penalty = ((5 + 16_384) / 6) ** alpha
    assert math.isfinite(penalty) and penalty > 0
    result = run("translate", "--checkpoint", made / "c.ckpt", "--beam", "2",
                 "--length-penalty", alpha, "when you play", cwd=tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.strip()


@pytest.mark.parametrize("args,word", [
    (["--temperature", "nan"], "--temperature"),
    (["--temperature", "inf"], "--temperature"),
    (["--temperature", "-1"], "--temperature"),
    (["--lr", "nan"], "--lr"),
    (["--lr", "-1"], "--lr"),
])
def test_generate_refuses_options_no_run_can_use(tmp_path, args, word):
    refused_unchanged(tmp_path, "generate", "you win", "--train-steps", "2", *args,
                      words=[word])


def test_generate_at_a_learning_rate_that_diverges_says_so(tmp_path):
    refused_unchanged(tmp_path, "generate", "you win", "--train-steps", "20", "--lr", "1e308",
                      words=["diverged", "learning rate"])


def test_a_tiny_temperature_samples_like_greedy(tmp_path):
    """p^(1/T) for T → 0 puts all the mass on the most likely token: greedy's answer."""
    common = ["generate", "you win", "--train-steps", "50"]
    greedy = run(*common, cwd=tmp_path)
    tiny = run(*common, "--temperature", "1e-320", cwd=tmp_path)
    assert greedy.returncode == 0 and tiny.returncode == 0, tiny.stderr.decode()
    assert b"Warning" not in tiny.stderr
    assert tiny.stdout == greedy.stdout
