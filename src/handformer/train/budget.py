"""`train --time-budget MINUTES`: training that ends when the user's time does, with the
warm-up schedule fitted to that time.

The paper's schedule decays as 1/√step and never ends; a run cut by a time limit stops in the
middle of it, at a rate still high. With a budget the schedule has an end: the first
FIRST_STEPS steps are timed, and the number of steps the budget holds is estimated from them
(``Options.total_steps``); the warm-up is the paper's (a straight rise to the same peak), then
the rate falls in a straight line to 0 at that last step (the "linear decay to zero" shape).
The estimate is made again after every epoch from everything measured so far, validation
included, so the end moves with the machine's real speed.

Training stops when the budget has run out (checked after every step, the partial epoch
validated and saved as an epoch) or when the schedule's last step is reached. The estimate
depends on measured time, so two runs with a budget need not be identical (the fitted
``total_steps`` is saved in the checkpoint, and --resume continues that schedule without a
clock). Under torchrun rank 0's clock decides, shared with the others.
"""

from __future__ import annotations

import time

from .optim import warmup_lr

FIRST_STEPS = 20  # steps timed before the first estimate


def fitted_lr(step: int, options, d_model: int) -> float:
    """The rate of ``step`` under the fitted schedule: the paper's warm-up to its peak at
    step ``warmup``, then a straight line to 0 at ``total_steps``."""
    warm, last = options.warmup, options.total_steps
    peak = warmup_lr(warm, d_model, warm, options.lr)
    if step <= warm:
        return peak * max(step, 1) / warm
    return peak * max(0.0, (last - step) / max(last - warm, 1))


def fit(options, steps_done: int, seconds_per_step: float, seconds_left: float) -> None:
    """Set ``total_steps`` to the steps done plus those the time left holds; a warm-up still
    under way and longer than half of that is shortened to half (its factor rescaled so the
    peak stays)."""
    total = steps_done + int(max(seconds_left, 0.0) / max(seconds_per_step, 1e-9))
    if steps_done < options.warmup and options.warmup > total // 2 and total >= 2:
        shorter = max(total // 2, steps_done, 1)  # never longer: only a warm-up not done yet
        options.lr *= (shorter / options.warmup) ** 0.5  # peak = factor · d^-½ · warmup^-½
        options.warmup = shorter
    options.total_steps = max(total, options.warmup + 1)


class Clock:
    """The budget's clock for one process: the budget counts from the run's start (its data
    read), the steps are timed from ``steps_begin`` (training's first step)."""

    def __init__(self, minutes: float):
        self.seconds = minutes * 60.0
        self.started = self.steps_started = time.monotonic()
        self.first_step = 0

    def steps_begin(self, step_count: int) -> None:
        self.steps_started, self.first_step = time.monotonic(), step_count

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def out(self) -> bool:
        return self.elapsed() >= self.seconds

    def timed_steps(self, step_count: int) -> int:
        return step_count - self.first_step

    def estimate(self, options, step_count: int) -> None:
        """Fit the schedule's end from the steps this clock has timed (none yet: no change)."""
        timed = self.timed_steps(step_count)
        if timed > 0:
            per_step = (time.monotonic() - self.steps_started) / timed
            fit(options, step_count, per_step, self.seconds - self.elapsed())


def after_step(run, agreed) -> bool:
    """After each step: the first estimate once FIRST_STEPS steps are timed; True when
    training must stop now (the budget ran out, or the schedule's last step is done), as
    ``agreed`` (rank 0's decision, under torchrun) makes it."""
    clock = run.clock
    if clock is None and run.options.total_steps is None:
        return False
    if clock is not None and clock.timed_steps(run.optimizer.step_count) == FIRST_STEPS:
        refit(run)
    return agreed(run, schedule_done(run) or (clock is not None and clock.out()))


def schedule_done(run) -> bool:
    """The fitted schedule's last step is done (its rate is 0 from there on)."""
    last = run.options.total_steps
    return last is not None and run.optimizer.step_count >= last


def refit(run) -> None:
    """The schedule's end estimated again from the run's clock (none: unchanged); under
    torchrun rank 0's estimate is everyone's."""
    if run.clock is None or run.options.schedule != "warmup":
        return
    o = run.options
    run.clock.estimate(o, run.optimizer.step_count)
    share = getattr(run.engine, "share_numbers", None)
    if share and o.total_steps is not None:
        total, warm, o.lr = share([o.total_steps, o.warmup, o.lr])
        o.total_steps, o.warmup = int(total), int(warm)
