"""`train --time-budget MINUTES`: the warm-up schedule fitted to the time (the paper's warm-up,
then a straight line to 0 at the estimated last step), training stopped when the time runs
out, and the best checkpoint's test line printed then, and after SIGTERM."""

import math
import os
import signal
import subprocess
import sys
import time

import pytest

from handformer import preset
from handformer.train import budget, checkpoint, loop
from handformer.train.data import encode_pairs, read_pairs
from support.clirun import run_here
from support.paths import ROOT

WORDS = ["red", "blue", "cat", "dog", "runs", "sleeps", "big", "small"]
TINY = ["--preset", "small", "--d-model", "8", "--heads", "2", "--d-ff", "8", "--layers", "1"]


def made_up_pairs(n: int) -> list[tuple[str, str]]:
    return [(f"{WORDS[i % 8]} {WORDS[i // 8 % 8]} {i}", f"{WORDS[i // 8 % 8]} {WORDS[i % 8]}")
            for i in range(n)]


@pytest.fixture
def folder(tmp_path):
    lines = "".join(f"{s}\t{t}\n" for s, t in made_up_pairs(120))
    (tmp_path / "p.tsv").write_text(lines, "utf-8")
    return tmp_path


class FakeTime:
    """A monotonic clock that moves only when the test moves it."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_fitted_rate_is_the_papers_warm_up_then_a_line_to_zero():
    options = loop.Options(schedule="warmup", lr=2.0, warmup=10, total_steps=30)
    d_model = 16
    peak = 2.0 / math.sqrt(16) / math.sqrt(10)  # factor · d^-½ · warmup^-½, by hand
    assert budget.fitted_lr(5, options, d_model) == pytest.approx(peak * 5 / 10)
    assert budget.fitted_lr(10, options, d_model) == pytest.approx(peak)
    assert budget.fitted_lr(20, options, d_model) == pytest.approx(peak / 2)  # half way down
    assert budget.fitted_lr(30, options, d_model) == 0.0
    # during the warm-up it is the paper's own rate: 2 · 16^-½ · 5 · 10^-1.5
    assert budget.fitted_lr(5, options, d_model) == pytest.approx(2.0 * 0.25 * 5 * 10 ** -1.5)


def test_fit_counts_the_steps_the_time_left_holds_and_keeps_the_peak():
    options = loop.Options(schedule="warmup", lr=1.0, warmup=100)
    budget.fit(options, steps_done=10, seconds_per_step=0.5, seconds_left=60.0)
    assert options.total_steps == 10 + 120  # 60 s at 0.5 s a step
    assert options.warmup == 65  # the warm-up, longer than half of it, is half of it
    # the paper's peak, d_model aside: factor · warmup^-½
    assert options.lr * options.warmup ** -0.5 == pytest.approx(1.0 * 100 ** -0.5)
    # a warm-up already done is never changed again, however the estimate moves
    budget.fit(options, steps_done=80, seconds_per_step=1.0, seconds_left=10.0)
    assert (options.total_steps, options.warmup) == (90, 65)


def budgeted_run(monkeypatch, fake: FakeTime):
    """A tiny run with a one-minute budget, timed by ``fake``'s clock (120 pairs, 96 to train)."""
    monkeypatch.setattr(budget, "time", fake)
    options = loop.Options(schedule="warmup", warmup=5, lr=0.5, time_budget=1.0,
                           batch_size=8, epochs=100, tokenizer="words", dtype="float32")
    cfg = preset("small").replace(d_model=8, heads=2, d_ff=8, layers=1)
    return loop.start(cfg, made_up_pairs(120), options, "p.tsv")


def test_the_run_stops_when_the_budget_runs_out(monkeypatch):
    fake = FakeTime()
    run = budgeted_run(monkeypatch, fake)
    rates = []

    def one_second_a_step(pairs, tokens):
        rates.append(loop.step_lr(run))  # the next step's rate
        fake.now += 1.0

    loop.fit(run, on_batch=one_second_a_step)
    # after 20 steps of 1 s: 40 s left hold 40 more steps, so the schedule ends at step 60,
    # which is also when the 60 s run out
    assert run.options.total_steps == 60 and run.optimizer.step_count == 60
    assert run.ended and run.epoch == len(run.history) == math.ceil(60 / 12)  # 96 pairs: 12 steps
    # rates[k] is step k + 2's: peak · (60 − step) / 55 after the 5 warm-up steps
    assert rates[47] == pytest.approx(rates[36] / 2, rel=1e-9)  # 11/55 and 22/55 of the peak
    assert rates[-1] == 0.0 and rates[57] == pytest.approx(rates[36] / 22, rel=1e-9)


def test_a_schedule_fitted_at_an_epochs_end_with_no_time_left_ends_at_that_step(monkeypatch):
    """The time runs out during the epoch's validation: the end-of-epoch estimate holds no more
    steps, so the run ends there; no step is taken past the fitted schedule's end."""
    fake = FakeTime()
    run = budgeted_run(monkeypatch, fake)
    real_validate = loop.validate

    def slow_validation(run, source="default"):
        fake.now += 3600.0  # the budget's whole minute, and more, spent validating
        return real_validate(run, source)

    monkeypatch.setattr(loop, "validate", slow_validation)
    loop.fit(run, on_batch=lambda pairs, tokens: None)
    assert run.ended and run.epoch == 1  # 96 training pairs: 12 steps, then the estimate
    assert run.optimizer.step_count == run.options.total_steps == 12


def test_a_fitted_schedule_ends_a_resumed_run_without_a_clock(capsys):
    options = loop.Options(schedule="warmup", warmup=2, lr=0.5, total_steps=5, batch_size=8,
                           epochs=100, tokenizer="words", dtype="float32")
    cfg = preset("small").replace(d_model=8, heads=2, d_ff=8, layers=1)
    run = loop.start(cfg, made_up_pairs(120), options, "p.tsv")
    loop.fit(run)
    assert run.clock is None and run.optimizer.step_count == 5 and run.ended
    assert run.epoch == 1 and run.options.total_steps == 5
    from handformer.commands.train_end import say_why_ended

    say_why_ended(run, "en")
    assert capsys.readouterr().out == ("the fitted schedule's last step (5) is done: training "
                                       "ended in epoch 1\n")


def test_train_prints_why_it_ended_and_the_best_checkpoints_test_line(folder, monkeypatch):
    fake = FakeTime()
    monkeypatch.setattr(budget, "time", fake)
    monkeypatch.setattr(budget.Clock, "out", lambda self: True)  # out after the first step
    out = run_here("train", "--pairs", "p.tsv", *TINY, "--schedule", "warmup", "--epochs", "50",
                   "--time-budget", "0.5", "--patience", "2", "--quiet", cwd=folder)
    assert out.returncode == 0, out.stderr.decode()
    text = out.stdout.decode()
    assert "the 0.5-minute time budget ended training in epoch 1 (after step 1;" in text
    assert "the best checkpoint, handformer.best.ckpt (epoch 1), on the test part:" in text
    best = checkpoint.load(folder / "handformer.best.ckpt")
    assert best.epoch == 1 and best.optimizer["step"] == 1
    # the test line is the best checkpoint's: its loss on the test part, evaluated here
    test = loop.held_out(best, read_pairs(folder / "p.tsv"), "test")
    m = loop.evaluate(best.params, best.config, best.vocab,
                      encode_pairs(best.vocab, test, best.config.max_len), dtype="float32")
    assert f"test ({len(test)} pairs): loss {m['loss']:.4f}," in text


def test_time_budget_zero_means_none_and_a_negative_one_is_refused(folder):
    out = run_here("train", "--pairs", "p.tsv", *TINY, "--epochs", "1", "--time-budget", "0",
                   "--quiet", cwd=folder)
    assert out.returncode == 0, out.stderr.decode()
    assert checkpoint.load(folder / "handformer.ckpt").run["options"]["time_budget"] is None
    refused = run_here("train", "--pairs", "p.tsv", "--time-budget", "-1", cwd=folder)
    lines = refused.stderr.decode().splitlines()
    assert refused.returncode == 2 and len(lines) == 1 and "--time-budget" in lines[0], lines


@pytest.mark.process
def test_sigterm_prints_the_best_checkpoints_test_line_and_exits(folder):
    lines = "".join(f"{s}\t{t}\n" for s, t in made_up_pairs(1200))
    (folder / "p.tsv").write_text(lines, "utf-8")
    env = os.environ | {"PYTHONPATH": str(ROOT / "src"), "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "handformer", "train", "--pairs", "p.tsv", *TINY, "--epochs",
         "1000", "--patience", "50", "--quiet"],
        cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (folder / "handformer.best.ckpt").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(0.5)  # the epoch's own checkpoint too
    sent = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert time.monotonic() - sent < 20
    assert "interrupted; the checkpoint handformer.ckpt holds epoch" in err
    assert "on the test part:" in out and "test (" in out and "BLEU" in out, out


@pytest.mark.process
@pytest.mark.slow
def test_under_torchrun_rank_0s_clock_decides_for_both(folder):
    pytest.importorskip("torch")
    env = os.environ | {"PYTHONPATH": str(ROOT / "src"), "MASTER_ADDR": "127.0.0.1",
                        "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
         "-m", "handformer", "train", "--engine", "torch", "--device", "cpu", "--pairs",
         "p.tsv", *TINY, "--schedule", "warmup", "--epochs", "1000", "--time-budget", "0.15",
         "--quiet"],
        env=env, cwd=folder, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    ended = ("time budget ended training in epoch", "the fitted schedule's last step")
    assert any(line in done.stdout for line in ended), done.stdout  # whichever came first
    ckpt = checkpoint.load(folder / "handformer.ckpt")
    options = ckpt.run["options"]
    assert options["total_steps"] is not None and ckpt.epoch < 1000
    # both processes took every step with the same rates: the weights are one model's, and
    # the fitted schedule's rate of the last step is what rank 0 computed
    assert ckpt.optimizer["step"] <= options["total_steps"]
