"""Environment inputs held to the limits of the options they stand for: COLUMNS like --width,
HANDFORMER_LIMITS to finite values of sane size."""

from __future__ import annotations

import pytest

from support.clirun import refused, run

pytestmark = pytest.mark.process  # the environment a fresh process reads


@pytest.mark.parametrize("columns, words", [("999999999", ["COLUMNS", "999,999,999", "10,000"]),
                                            ("9" * 5000, ["COLUMNS", "5,000 digits"])])
def test_a_huge_columns_is_refused_like_a_huge_width(tmp_path, columns, words):
    refused(run("walk", "--steps", "1", cwd=tmp_path, env={"COLUMNS": columns}), *words)


@pytest.mark.parametrize("columns", ["0", "\u00b2", "abc"])
def test_a_columns_that_is_no_width_is_ignored(tmp_path, columns):
    done = run("walk", "--steps", "1", cwd=tmp_path, env={"COLUMNS": columns})
    assert done.returncode == 0, done.stderr
    rule = next(line for line in done.stdout.decode().splitlines() if "· Define the dataset" in line)
    assert len(rule) <= 80  # the default width, not COLUMNS


def test_columns_within_the_limit_sets_the_width(tmp_path):
    done = run("walk", "--steps", "1", cwd=tmp_path, env={"COLUMNS": "60"})
    rule = next(line for line in done.stdout.decode().splitlines() if "· Define the dataset" in line)
    assert len(rule) == 60


@pytest.mark.parametrize("value", ["1e300", "9" * 400, "inf", "nan", "-1"])
def test_handformer_limits_takes_finite_values_of_sane_size(tmp_path, value):
    refused(run("walk", "--steps", "1", cwd=tmp_path,
                env={"HANDFORMER_LIMITS": f"width={value}"}), "HANDFORMER_LIMITS")
