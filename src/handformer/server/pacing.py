"""A training job's pace: as fast as it can, slowed to some epochs per second, paused, or one
epoch at a time (server/pace.py sets it; jobs.py asks it between batches and after epochs)."""

from __future__ import annotations

import threading


class Pace:
    """Set while the job may train ("go"); its epochs per second (None: as fast as it can); the
    epochs left before it holds again (None: no such count)."""

    def __init__(self):
        self.go = threading.Event()
        self.go.set()
        self.per_second: float | None = None
        self.steps: int | None = None

    def wait(self, cancel: threading.Event) -> None:
        """Between batches: hold while paused (a stop still ends the job)."""
        while not self.go.wait(0.1):
            if cancel.is_set():
                return

    def after_epoch(self, cancel: threading.Event) -> None:
        if self.steps is not None:
            self.steps -= 1
            if self.steps <= 0:
                self.steps = None
                self.go.clear()
        if self.per_second:
            cancel.wait(1 / self.per_second)

    def status(self) -> dict:
        return {"paused": not self.go.is_set(), "epochs_per_second": self.per_second}
