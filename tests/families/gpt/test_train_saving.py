"""`train --family gpt` keeps its --save file as the encoder-decoder's training does: a
checkpoint while it trains, the last epoch saved on Ctrl-C and SIGTERM (exit 130, the same
message), one run per file (train/lock.py), and --resume ending where an uninterrupted run
ends."""

import signal
import subprocess
import time

import numpy as np
import pytest

from handformer.families.gpt import train as gpt_train
from handformer.families.gpt.config import GptConfig
from handformer.families.gpt.run import build
from handformer.train import saving
from handformer.train.checkpoint import load
from support.clirun import COMMAND, run_here


def stop_at(monkeypatch, epoch: int, seen: list | None = None):
    """Ctrl-C at the start of ``epoch`` (1-based); before it, note in ``seen`` the epoch the
    --save file holds."""
    real = gpt_train.epoch

    def epoch_or_stop(run):
        if len(run.history) + 1 == epoch:
            if seen is not None:
                seen.append(load("s.ckpt", family="gpt").epoch)
            raise KeyboardInterrupt
        return real(run)

    monkeypatch.setattr(gpt_train, "epoch", epoch_or_stop)


def test_the_checkpoint_exists_after_the_first_epoch_of_a_longer_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(saving, "INTERVAL", 0.0)  # every epoch written as it ends
    seen = []
    stop_at(monkeypatch, 2, seen)
    out = run_here("train", "--family", "gpt", "--epochs", "50", "--quiet", "--save", "s.ckpt",
                   cwd=tmp_path)
    assert seen == [1]
    assert out.returncode == 130, out.stderr
    assert b"interrupted; the checkpoint s.ckpt holds epoch 1, the last one saved; continue " \
           b"with `handformer train --resume s.ckpt`" in out.stderr


def test_ctrl_c_saves_the_last_epoch_and_resume_ends_as_an_uninterrupted_run(tmp_path,
                                                                             monkeypatch):
    """Stopped at the start of epoch 5 before any write (an hour between writes), the file
    holds epoch 4; `train --resume` (no --family: the checkpoint says it) to 12 ends with the
    weights and losses of 12 steps in one go, computed here by the family's own fit."""
    monkeypatch.chdir(tmp_path)
    with monkeypatch.context() as patch:
        stop_at(patch, 5)
        patch.setattr(saving, "INTERVAL", 3600.0)
        out = run_here("train", "--family", "gpt", "--epochs", "12", "--quiet", "--dropout",
                       "0.1", "--save", "s.ckpt", cwd=tmp_path)
    assert out.returncode == 130, out.stderr
    assert b"holds epoch 4" in out.stderr and load("s.ckpt", family="gpt").epoch == 4
    again = run_here("train", "--resume", "s.ckpt", "--quiet", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    saved = load("s.ckpt", family="gpt")
    model = build(GptConfig(preset="tutorial", dropout=0.1))
    history = gpt_train.fit(model, 12, 0.02)
    assert saved.epoch == 12 and [h["loss"] for h in saved.history] == history
    for name, value in model.params.items():
        np.testing.assert_array_equal(saved.params[name], value, err_msg=name)


def test_a_chinese_run_says_it_in_chinese(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    stop_at(monkeypatch, 3)
    out = run_here("train", "--family", "gpt", "--epochs", "9", "--quiet", "--lang", "zh",
                   "--save", "s.ckpt", cwd=tmp_path)
    assert out.returncode == 130
    assert "检查点 s.ckpt 保存着最后保存的第 2 轮".encode() in out.stderr


def test_resume_ends_where_an_uninterrupted_run_ends(tmp_path):
    first = run_here("train", "--family", "gpt", "--epochs", "4", "--dropout", "0.1", "--quiet",
                     "--save", "s.ckpt", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    again = run_here("train", "--resume", "s.ckpt", "--epochs", "9", "--quiet", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    saved = load(tmp_path / "s.ckpt", family="gpt")
    model = build(GptConfig(preset="tutorial", dropout=0.1))
    history = gpt_train.fit(model, 9, 0.02)
    assert saved.epoch == 9 and [h["loss"] for h in saved.history] == history
    for name, value in model.params.items():
        np.testing.assert_array_equal(saved.params[name], value, err_msg=name)


def test_resume_takes_only_epochs(tmp_path):
    first = run_here("train", "--family", "gpt", "--epochs", "2", "--quiet", "--save", "s.ckpt",
                     cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    out = run_here("train", "--resume", "s.ckpt", "--d-model", "8", cwd=tmp_path)
    assert out.returncode == 2 and b"only --epochs may change (got --d-model)" in out.stderr
    out = run_here("train", "--family", "transformer", "--resume", "s.ckpt", cwd=tmp_path)
    assert out.returncode == 2 and b"holds a model of the gpt family" in out.stderr


def start_long_run(tmp_path):
    proc = subprocess.Popen([*COMMAND, "train", "--family", "gpt", "--epochs", "1000000",
                             "--quiet", "--save", "s.ckpt"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not (tmp_path / "s.ckpt").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert (tmp_path / "s.ckpt").exists(), "no checkpoint within a minute"
    return proc


@pytest.mark.process
def test_sigterm_mid_run_leaves_a_loadable_checkpoint_and_exits_130(tmp_path):
    proc = start_long_run(tmp_path)
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    saved = load(tmp_path / "s.ckpt", family="gpt")
    assert 0 < saved.epoch < 1_000_000 and len(saved.history) == saved.epoch
    assert f"holds epoch {saved.epoch}, the last one saved".encode() in err


@pytest.mark.process
def test_a_second_run_on_the_same_save_file_is_refused_naming_the_holder(tmp_path):
    proc = start_long_run(tmp_path)
    try:
        second = subprocess.run([*COMMAND, "train", "--family", "gpt", "--epochs", "3",
                                 "--quiet", "--save", "s.ckpt"], cwd=tmp_path,
                                capture_output=True, timeout=120)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
    assert second.returncode == 2
    lines = second.stderr.decode().strip().splitlines()
    assert lines == [f"error: checkpoint 's.ckpt' is being trained by another run (pid "
                     f"{proc.pid}); wait for it, or give another --save FILE"]


def test_a_diverging_run_is_one_line_naming_the_last_epoch_saved(tmp_path, monkeypatch):
    """A loss that is no longer a number at epoch 3 (made so here): the file keeps epoch 2."""
    monkeypatch.setattr(saving, "INTERVAL", 0.0)
    real = gpt_train.epoch

    def nan_at_three(run):
        loss = real(run)
        if len(run.history) == 3:
            run.history[-1] = loss = float("nan")
        return loss

    monkeypatch.setattr(gpt_train, "epoch", nan_at_three)
    out = run_here("train", "--family", "gpt", "--epochs", "9", "--quiet", "--save", "s.ckpt",
                   cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr.decode().strip() == (
        "error: training diverged: the loss is nan after 3 Adam steps; the learning rate 0.02 "
        "is too high; s.ckpt holds epoch 2, the last one saved")
    assert load(tmp_path / "s.ckpt", family="gpt").epoch == 2
