"""Per-browser sessions (a random cookie) and the trained models kept in memory.

A session sees only its own jobs and models: every lookup goes through the session, and a job
id from another session is simply not found. Sessions and models are both bounded, the least
recently used dropped first.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

COOKIE = "hf_session"
JOBS_KEPT = 16  # jobs remembered per session (finished ones dropped first)


@dataclass
class Session:
    id: str
    jobs: OrderedDict = field(default_factory=OrderedDict)  # job id -> Job

    def add_job(self, job) -> None:
        self.jobs[job.id] = job
        finished = [j for j in self.jobs.values() if not j.active]
        while len(self.jobs) > JOBS_KEPT and finished:
            self.jobs.pop(finished.pop(0).id, None)

    def running(self) -> int:
        return sum(1 for j in self.jobs.values() if j.active)


class LRU:
    """A thread-safe mapping of at most ``size`` entries; ``on_drop`` hears who fell out."""

    def __init__(self, size: int, on_drop=None):
        self.size, self.on_drop = size, on_drop
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            dropped = []
            while len(self._items) > self.size:
                dropped.append(self._items.popitem(last=False))
        for k, v in dropped:
            if self.on_drop:
                self.on_drop(k, v)

    def __len__(self) -> int:
        return len(self._items)


class Sessions:
    """Session by cookie value; an unknown or missing cookie gets a fresh session."""

    def __init__(self, size: int):
        self._store = LRU(size)
        self._lock = threading.Lock()

    def find(self, cookie: str | None) -> tuple[Session, bool]:
        """(session, created): created means the response must set the cookie."""
        with self._lock:
            session = self._store.get(cookie) if cookie else None
            if session is not None:
                return session, False
            session = Session(secrets.token_urlsafe(24))
            self._store.put(session.id, session)
            return session, True
