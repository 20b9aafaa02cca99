"""A training job's pace: as fast as it can, slowed to some epochs per second, paused, or one
epoch at a time (server/pace.py sets it; jobs.py asks it between batches and after epochs)."""

from __future__ import annotations

import threading
import time


class Pace:
    """Set while the job may train ("go"); its epochs per second (None: as fast as it can); the
    epochs left before it holds again (None: no such count)."""

    def __init__(self):
        self.go = threading.Event()
        self.go.set()
        self.per_second: float | None = None
        self.steps: int | None = None

    def wait(self, cancel: threading.Event, limit: float = float("inf")) -> bool:
        """Between batches: hold while paused (a stop still ends the job). False when the job
        stayed paused ``limit`` seconds in a row (the caller then stops it)."""
        since = time.monotonic()
        while not self.go.wait(0.1):
            if cancel.is_set():
                return True
            if time.monotonic() - since >= limit:
                return False
        return True

    def after_epoch(self, cancel: threading.Event, limit: float = float("inf")) -> None:
        """Hold the epoch's pace: 1 / rate seconds, never longer than ``limit`` (the pause
        limit), a rate changed meanwhile taking effect at once, a stop ending it."""
        if self.steps is not None:
            self.steps -= 1
            if self.steps <= 0:
                self.steps = None
                self.go.clear()
        since = time.monotonic()
        while self.per_second and not cancel.is_set():
            left = min(1 / self.per_second, limit) - (time.monotonic() - since)
            if left <= 0:
                return
            cancel.wait(min(left, 0.1))

    def status(self) -> dict:
        return {"paused": not self.go.is_set(), "epochs_per_second": self.per_second}
