"""The known models the web app walks (SmolLM2-135M: registry.app_models), kept per server
process.

A model is read once, in a thread of its own (about 10 s and 1 GB), whatever the number of
requests: a request that finds it loading is answered at once with how long it has been
loading (the page says so and asks again), so no request waits on it. Each prompt is walked
once with every block on its tape (LRU, bounded in bytes); a choice of blocks shown in full is a
view of that walk (the family's ``view``: the other blocks elided), so opening a block renders
panels without walking again.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict

from .. import pipeline
from ..errors import HandformerError
from ..families import registry
from .limits import RequestError

MAX_PROMPT_TOKENS = 32  # a full walk of 32 tokens keeps about 170 MB of steps
CACHE_BYTES = 256 * 1024 * 1024  # the full walks kept, least recently used dropped first
EXPECTED_SECONDS = 10  # a load's usual length, for the page's progress bar (2 cores)


class Loader:
    """One known model: idle, loading, ready or failed; ``load`` (for the tests) replaces the
    pipeline's own loading."""

    def __init__(self, name: str, load=None):
        self.name = name
        self._load = load or (lambda: pipeline.prepare({"pretrained": name}))
        self.state, self.error = "idle", None
        self.started = self.finished = None
        self.family = self.model = None
        self.tapes = Tapes()
        self._lock = threading.Lock()

    def status(self) -> dict:
        end = self.finished or time.time()
        return {"name": self.name, "state": self.state, "error": self.error,
                "seconds": None if self.started is None else round(end - self.started, 1),
                "expected_seconds": EXPECTED_SECONDS}

    def ready(self):
        """(family, model) once loaded; else None, the load started if it was not. A failed
        load is refused once (its message), and tried again at the next request."""
        with self._lock:
            if self.state == "ready":
                return self.family, self.model
            if self.state == "failed":
                self.state, error = "idle", self.error
                raise RequestError(f"{self.name} could not be loaded: {error}", "family", 422)
            if self.state == "idle":
                self.state, self.error, self.started = "loading", None, time.time()
                self.finished = None
                threading.Thread(target=self._run, daemon=True,
                                 name=f"handformer-load-{self.name}").start()
            return None

    def _run(self) -> None:
        try:
            family, model = self._load()
            with self._lock:
                self.family, self.model, self.state = family, model, "ready"
        except HandformerError as err:
            self._failed(str(err))
        except MemoryError:
            self._failed("the server ran out of memory loading it")
        except Exception as err:  # noqa: BLE001  (a load must end with a state, never hang)
            self._failed(f"{type(err).__name__}: {err}")
        finally:
            self.finished = time.time()

    def _failed(self, message: str) -> None:
        with self._lock:
            self.state, self.error = "failed", message


class Tapes:
    """Each prompt's walk with every block in full, least recently used dropped first once
    they hold more than ``capacity`` bytes; a prompt asked twice at once is walked once."""

    def __init__(self, capacity: int = CACHE_BYTES):
        self.capacity = capacity
        self._kept: OrderedDict = OrderedDict()  # text → (tape, bytes)
        self._walking: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()

    def full(self, family, model, text: str, layers: int):
        with self._lock:
            walking = self._walking.setdefault(text, threading.Lock())
        with walking:
            with self._lock:
                if text in self._kept:
                    self._kept.move_to_end(text)
                    return self._kept[text][0]
            try:
                tape = pipeline.finish(family, model, {"src": text, "tgt": None, "blocks_shown":
                                                       ",".join(map(str, range(layers)))}).tape
            finally:
                with self._lock:
                    self._walking.pop(text, None)
            with self._lock:
                self._kept[text] = (tape, kept_bytes(tape))
                while len(self._kept) > 1 and self.size() > self.capacity:
                    self._kept.popitem(last=False)
        return tape

    def size(self) -> int:
        return sum(size for _, size in self._kept.values())


def kept_bytes(tape) -> int:
    """The bytes a tape's steps own (views of other arrays and the weights cost nothing)."""
    weights = {id(p) for p in tape.params.values()}
    return sum(s.value.nbytes for s in tape.steps
               if getattr(s.value, "base", 0) is None and id(s.value) not in weights)


_loaders: dict[str, Loader] = {}
_loaders_lock = threading.Lock()


def loader(name: str) -> Loader:
    """The process's one Loader of ``name`` (a known model, else refused naming them)."""
    models = registry.app_models()
    if name not in models:
        raise RequestError(f"pretrained must be one of {', '.join(models) or 'none'}, got "
                           f"{str(name)[:40]!r}", "pretrained")
    with _loaders_lock:
        return _loaders.setdefault(name, Loader(name))


def about() -> list[dict]:
    """Every known model the app offers: its name, whether its file is here (else the pip
    line), its example prompt and blocks, and its loading state."""
    out = []
    for name, family in registry.app_models().items():
        state = _loaders[name].status() if name in _loaders else {"state": "idle"}
        out.append({"name": name, **family.pretrained_app.about(name),
                    "state": state["state"], "max_tokens": MAX_PROMPT_TOKENS})
    return out
