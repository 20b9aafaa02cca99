"""Per-browser sessions (a random cookie) and the trained models kept in memory.

A session sees only its own jobs and models: every lookup goes through the session, and a job
id from another session is simply not found. Sessions and models are both bounded, the least
recently used dropped first, except a session with a running job, which stays until the job
ends (so no flood of new sessions can orphan a job that is still training).
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
    """A thread-safe mapping of at most ``size`` entries; ``on_drop`` hears who fell out.
    Entries that ``pinned`` says must stay are skipped when the oldest is dropped (so the
    mapping may hold more than ``size`` while they are pinned)."""

    def __init__(self, size: int, on_drop=None, pinned=None):
        self.size, self.on_drop, self.pinned = size, on_drop, pinned or (lambda _value: False)
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
                oldest = next((k for k, v in self._items.items() if not self.pinned(v)), None)
                if oldest is None:
                    break
                dropped.append((oldest, self._items.pop(oldest)))
        for k, v in dropped:
            if self.on_drop:
                self.on_drop(k, v)

    def __len__(self) -> int:
        return len(self._items)


class Sessions:
    """Session by cookie value; an unknown or missing cookie gets a fresh session. A session
    whose training job still runs is never dropped: its owner can always see and stop it
    (running jobs are few, Limits.max_jobs_running, so few sessions are kept so)."""

    def __init__(self, size: int):
        self._store = LRU(size, pinned=lambda session: session.running() > 0)
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
