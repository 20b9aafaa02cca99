"""Training in the background: one thread per job, progress after every epoch, cancellable.

The job trains as `handformer train` does (train.loop.start and fit, Adam by default) and keeps
its model in the server's bounded model store, from which translate reads it, with its initial
weights (the untrained model shown beside the trained one). A paused job keeps its running slot
until it is resumed, stopped, or has been paused ``Limits.max_pause_seconds``: then it is
stopped as if Stop had been pressed (its model so far kept).
"""

from __future__ import annotations

import secrets
import threading
import time
from contextlib import ExitStack, contextmanager

from ..errors import HandformerError
from ..train import loop
from . import updates
from .budget import Budget
from .limits import Limits, RequestError
from .pacing import Pace
from .sessions import LRU, Session


class Cancelled(Exception):
    """Raised inside the training thread when its job is stopped."""


class Job:
    def __init__(self, run, epochs: int):
        self.id = secrets.token_urlsafe(9)
        self.run, self.epochs = run, epochs
        self.state, self.error, self.final = "running", None, None
        self.history: list[dict] = []
        self.started, self.finished = time.time(), None
        self.cancel = threading.Event()
        self.lock = threading.Lock()
        self.pace = Pace()
        self.initial = None if run is None else {k: v.copy() for k, v in run.params.items()}
        self.update: dict | None = None  # the last update made while stepping (updates.py)
        self.pause_limit = float("inf")
        self.paused_out: float | None = None  # seconds of pause after which it was stopped

    @property
    def active(self) -> bool:
        return self.state == "running"

    def status(self) -> dict:
        with self.lock:
            history = list(self.history)
        last, run = (history[-1] if history else {}), self.run
        return {"id": self.id, "state": self.state, "epochs": self.epochs,
                "epochs_done": len(history), "losses": [h["loss"] for h in history],
                "accuracy": [h["accuracy"] for h in history], "loss": last.get("loss"),
                "final": self.final, "error": self.error, "model": run is not None,
                "seconds": round((self.finished or time.time()) - self.started, 3),
                "update": self.update, "paused_out": self.paused_out,
                "lr": None if run is None else run.optimizer.lr} | self.pace.status()


class Jobs:
    """Every job of the server; at most ``max_jobs_running`` train at once."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.models = LRU(limits.max_models, on_drop=lambda _key, job: _forget(job))
        self._running = 0
        self._lock = threading.Lock()

    def start(self, session: Session, run, epochs: int, numbers: int = 0,
              budget: Budget | None = None) -> Job:
        """A job training ``run`` in its own thread; each of its steps holds ``numbers`` of
        the server's ``budget`` while it runs."""
        with self._lock:
            if self._running >= self.limits.max_jobs_running:
                raise RequestError(f"{self._running} training jobs are running, this server's "
                                   f"limit; wait or stop one", "epochs", 429)
            if session.running() >= self.limits.max_jobs_per_session:
                raise RequestError(f"this session already runs {session.running()} training "
                                   f"jobs (the limit); wait or stop one", "epochs", 429)
            self._running += 1
        job = Job(run, epochs)
        job.pause_limit = self.limits.max_pause_seconds
        if budget is not None:
            run.guard = lambda: _room(job, budget, numbers)
        updates.watch(job)
        session.add_job(job)
        threading.Thread(target=self._train, args=(job,), daemon=True,
                         name=f"handformer-train-{job.id}").start()
        return job

    def _train(self, job: Job) -> None:
        try:
            loop.fit(job.run, on_batch=lambda _pairs, _tokens: _check(job),
                     on_epoch=lambda s: _add(job, s), keep_freed=False)
            r = job.run
            with loop.guarded(r):
                job.final = loop.evaluate(r.params, r.config, r.vocab, r.train,
                                          dtype=r.options.dtype)
            job.state = "done"
        except Cancelled:
            job.state = "cancelled"
        except HandformerError as err:
            job.state, job.error = "failed", str(err)
        except MemoryError:
            job.state, job.error = "failed", OUT_OF_MEMORY
        except Exception as err:  # noqa: BLE001  (a job must end with a state, never hang)
            job.state, job.error = "failed", f"{type(err).__name__}: {err}"
        finally:
            job.finished = time.time()
            with self._lock:
                self._running -= 1
            if job.history and job.error != OUT_OF_MEMORY:  # else its memory is given back
                self.models.put(job.id, job)
            else:
                _forget(job)

    def model(self, job: Job):
        """The job's trained run (marks it recently used), or None if dropped or not ready."""
        if job.active or self.models.get(job.id) is None:
            return None
        return job.run


OUT_OF_MEMORY = ("the server ran out of memory for this job; try a smaller batch_size, fewer "
                 "or shorter pairs, or a smaller model")


@contextmanager
def _room(job: Job, budget: Budget, numbers: int):
    """Room in the server's budget for one step of ``job`` (waiting as long as it takes; a
    job stopped while it waits ends as cancelled)."""
    with ExitStack() as held:
        try:
            held.enter_context(budget.hold(numbers, job.cancel))
        except RequestError:  # stopped while it waited
            raise Cancelled from None
        yield


def _check(job: Job) -> None:
    if not job.pace.wait(job.cancel, job.pause_limit):
        job.paused_out = job.pause_limit
        job.error = (f"paused for {job.pause_limit:g} s: stopped so that it does not hold a "
                     f"training slot (its model so far is kept)")
        raise Cancelled
    if job.cancel.is_set():
        raise Cancelled


def _add(job: Job, stats: dict) -> None:
    with job.lock:
        job.history.append(stats)
    job.pace.after_epoch(job.cancel, job.pause_limit)
    _check(job)


def _forget(job: Job) -> None:
    job.run = job.initial = None


def new_run(cfg, pairs, options: loop.Options):
    """A fresh training run (vocabulary, weights, optimizer) as `handformer train` starts it."""
    return loop.start(cfg, pairs, options)
