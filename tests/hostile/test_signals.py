"""Signals and standard streams: Ctrl-C is status 130 and one line; a reader that goes away
(`| head -1`) ends the run quietly with status 141; a full or closed stdout is one error line
and status 2. Never a traceback."""

from __future__ import annotations

import os
import subprocess

import pytest

from support.writer import (
    HANDFORMER,
    LONG_TRAIN,
    computing,
    digest,
    handformer,
    interrupt,
    one_line,
    running,
    temporaries,
    wait_for,
)

pytestmark = pytest.mark.process  # signals, pipes and exit statuses

PAGE = ["walk"]
JSON = ["walk", "--format", "json"]
TRANSLATE = ["translate", "--checkpoint", "c.ckpt", "when you play the game of thrones"]
EVALUATE = ["evaluate", "--checkpoint", "c.ckpt"]
PRINTING = {"walk": PAGE, "json": JSON, "translate": TRANSLATE, "evaluate": EVALUATE}


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A folder holding a small trained checkpoint, c.ckpt."""
    folder = tmp_path_factory.mktemp("trained")
    done = handformer("train", "--epochs", "3", "--quiet", "--save", "c.ckpt", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder


def test_ctrl_c_during_walk_is_130_and_one_line(tmp_path):
    with running("walk", "--preset", "paper", cwd=tmp_path) as proc:
        wait_for(lambda: computing(proc), 120, "the paper-size walk to be computing")
        status, err = interrupt(proc, after=0)
    assert status == 130 and "Traceback" not in err, err
    assert err.strip().splitlines() == ["interrupted"]


def test_ctrl_c_during_walk_keeps_the_old_output(tmp_path):
    (tmp_path / "out.json").write_text("the old tape")
    with running("walk", "--preset", "paper", "--format", "json", "-o", "out.json",
                 cwd=tmp_path) as proc:
        wait_for(lambda: computing(proc), 120, "the paper-size walk to be computing")
        status, err = interrupt(proc, after=0)
    assert status == 130 and err.strip().splitlines() == ["interrupted"], err
    assert (tmp_path / "out.json").read_text() == "the old tape"
    assert temporaries(tmp_path) == []


def test_ctrl_c_during_train_keeps_the_last_checkpoint_and_says_so(tmp_path):
    with running(*LONG_TRAIN, "--save", "c.ckpt", cwd=tmp_path) as proc:
        wait_for(lambda: (tmp_path / "c.ckpt").exists(), 120, "the first checkpoint")
        status, err = interrupt(proc, after=0.5)
    assert status == 130 and "Traceback" not in err, err
    last = err.strip().splitlines()[-1]
    assert "interrupted" in last and "c.ckpt holds epoch" in last, err
    assert [p.name for p in tmp_path.iterdir()] == ["c.ckpt"]  # no temporary, no lock
    done = handformer("evaluate", "--checkpoint", "c.ckpt", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("what", PRINTING)
def test_a_reader_that_went_away_ends_quietly_with_141(trained, what):
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first byte: `| head -0`
    try:
        done = handformer(*PRINTING[what], cwd=trained, stdout=write)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (141, "")


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_a_reader_that_leaves_after_one_line_ends_quietly_with_141(tmp_path, unbuffered):
    """`walk | head -1`: the walkthrough (about 130 kB) is more than a pipe holds (64 KiB),
    so the reader leaves in the middle of the write, buffered or not (PYTHONUNBUFFERED)."""
    env = os.environ | {"COLUMNS": "100", "PYTHONUNBUFFERED": unbuffered}
    proc = subprocess.Popen([*HANDFORMER, "walk"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert (proc.wait(timeout=300), err) == (141, b"")


@pytest.mark.parametrize("what", [*PRINTING, "train", "help"])
def test_a_full_stdout_is_one_error_line(trained, what):
    before = digest(trained / "c.ckpt")
    args = {"train": ["train", "--epochs", "1", "--quiet", "--save", "t.ckpt"],
            "help": ["walk", "--help"]}.get(what) or PRINTING[what]
    with open("/dev/full", "w") as full:
        done = handformer(*args, cwd=trained, stdout=full)
    err = done.stderr.strip().splitlines()
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert err[-1] == "error: cannot write to standard output: no space left on the device; " \
                      "give -o FILE", done.stderr
    assert len(err) == (2 if what == "train" else 1), done.stderr  # train: its start line
    assert digest(trained / "c.ckpt") == before


@pytest.mark.parametrize("what", ["walk", "translate"])
def test_a_closed_stdout_is_one_error_line(trained, what):
    done = handformer(*PRINTING[what], cwd=trained, stdout=None, closed_stdout=True)
    one_line(done, "standard output: it is closed")


def test_a_closed_stdout_does_not_matter_with_o(tmp_path):
    done = handformer("walk", "-o", "out.txt", cwd=tmp_path, stdout=None, closed_stdout=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.txt").stat().st_size > 0
