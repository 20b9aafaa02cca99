"""Checkpoints: an interrupted run, resumed, ends with weights identical to an uninterrupted
run; truncated, corrupted and foreign files are refused with a clear message."""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.families.transformer.config import preset
from handformer.families.transformer.model import init_params
from handformer.families.transformer.weights import save_weights
from handformer.train import checkpoint, loop
from handformer.train.checkpoint import CheckpointError
from handformer.train.data import default_pairs

# Dropout and batches of 2 make the shuffle and the dropout masks depend on the saved RNG.
CFG = dict(dropout=0.1, label_smoothing=0.1)


def options(optimizer):
    return loop.Options(epochs=6, lr=0.01, optimizer=optimizer, batch_size=2, clip=1.0)


class Stop(KeyboardInterrupt):
    pass


def interrupt_after(k):
    def on_epoch(stats):
        if stats["epoch"] == k:
            raise Stop

    return on_epoch


@pytest.mark.parametrize("optimizer", ["adam", "sgd"])
def test_resume_after_interrupt_equals_uninterrupted_run(tmp_path, optimizer):
    pairs = default_pairs()
    whole = loop.fit(loop.start(preset("tutorial", **CFG), pairs, options(optimizer)))
    path = tmp_path / "run.ckpt"
    with pytest.raises(Stop):  # Ctrl-C after epoch 3, while epochs are quicker than saves
        loop.fit(loop.start(preset("tutorial", **CFG), pairs, options(optimizer)), path,
                 on_epoch=interrupt_after(3), save_interval=3600)
    saved = checkpoint.load(path)
    assert saved.epoch == 3
    at_epoch_3 = saved.params["generator.w"].copy()
    resumed = loop.fit(loop.resume(saved, pairs), path)
    assert resumed.epoch == whole.epoch == 6
    for name, value in whole.params.items():
        assert np.array_equal(resumed.params[name], value), name
    for name, value in whole.optimizer.state.items():
        assert np.array_equal(resumed.optimizer.state[name], value), name
    assert resumed.history == whole.history
    assert not np.array_equal(at_epoch_3, whole.params["generator.w"])  # it did train on


def trained_checkpoint(path):
    run = loop.start(preset("tutorial"), default_pairs(), loop.Options(epochs=2))
    loop.fit(run, path)
    return path


def test_round_trip_keeps_everything(tmp_path):
    path = trained_checkpoint(tmp_path / "a.ckpt")
    ckpt = checkpoint.load(path)
    assert ckpt.epoch == 2 and ckpt.optimizer["name"] == "adam" and ckpt.optimizer["step"] == 2
    assert ckpt.vocab.tokens[23:] == ["<start>", "<end>", "<pad>"]
    assert ckpt.config == preset("tutorial")
    assert set(ckpt.optimizer_state) == {f"{m}.{n}" for m in "mv" for n in ckpt.params}


def test_truncated_checkpoint_is_refused(tmp_path):
    path = trained_checkpoint(tmp_path / "t.ckpt")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(CheckpointError, match="not a readable checkpoint"):
        checkpoint.load(path)


def test_corrupted_tensor_bytes_are_refused(tmp_path):
    path = trained_checkpoint(tmp_path / "c.ckpt")
    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF  # inside the last tensor: the file still parses as safetensors
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="corrupted"):
        checkpoint.load(path)


def test_foreign_files_are_refused(tmp_path):
    weights = tmp_path / "w.safetensors"
    cfg = preset("tutorial")
    save_weights(weights, init_params(cfg, 25), cfg, [str(i) for i in range(25)])
    with pytest.raises(CheckpointError, match="not a handformer checkpoint"):
        checkpoint.load(weights)
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    with pytest.raises(CheckpointError, match="not a readable checkpoint"):
        checkpoint.load(text)
    with pytest.raises(CheckpointError, match="does not exist"):
        checkpoint.load(tmp_path / "missing.ckpt")


def test_cli_refuses_a_bad_checkpoint_with_exit_2(tmp_path):
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(b"\x00" * 3)
    result = CliRunner().invoke(main, ["translate", "--checkpoint", str(bad), "the storm"])
    assert result.exit_code == 2
    assert "error:" in result.output and "Traceback" not in result.output


@pytest.mark.process
def test_sigint_leaves_a_good_checkpoint_that_resumes(tmp_path):
    exe = os.path.join(os.path.dirname(sys.executable), "handformer")
    ckpt = tmp_path / "k.ckpt"
    proc = subprocess.Popen([exe, "train", "--epochs", "100000", "--quiet", "--save", str(ckpt)],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not ckpt.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert b"--resume" in err
    saved = checkpoint.load(ckpt)
    assert 0 < saved.epoch < 100000
    result = CliRunner().invoke(main, ["train", "--resume", str(ckpt), "--save", str(ckpt),
                                       "--epochs", str(saved.epoch + 2), "--quiet"])
    assert result.exit_code == 0, result.output
    assert checkpoint.load(ckpt).epoch == saved.epoch + 2
