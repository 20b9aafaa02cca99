"""The random draws of the page's "check yourself" questions, kept between runs.

check.py draws its questions with numpy's ``default_rng(SEED)``; importing numpy.random (its
bit generators, ``secrets`` with hashlib and OpenSSL) costs more than drawing and writing all
the questions, and a page made with the weights in the cache (engine/initial_cache.py) needs
numpy.random for nothing else. What a generator answers depends only on its seed and on the
requests made of it so far, in order (``integers(n)``, ``permutation(n)``). So a run's requests
and answers are kept in the user's cache folder (``$XDG_CACHE_HOME/handformer`` or
``~/.cache/handformer``), and a later run that makes the same requests gets the same answers
without a generator. At the first request no kept run made (another model, other sizes), a
real generator is made and asked the requests made so far again, which leaves it where the
kept run's generator was; it answers the rest, and the new run is kept for the next time.
The file names numpy's version and the seed: another version may draw differently. ``RUNS``
runs at most; only a file the user owns and nobody else may write is read; a file or folder
that cannot be read or written is skipped, never an error.
"""

from __future__ import annotations

import atexit
import json

import numpy as np

from ...files import user_cache

RUNS = 8  # the runs a file keeps (the last first): a few models' pages


class Draws:
    """``numpy.random.default_rng(seed)`` as check.py uses it, answering from a kept run while
    the requests are that run's. ``integers(n)`` gives an int, ``permutation(n)`` a list."""

    def __init__(self, seed: int):
        self.seed = seed
        self.asked: list[list] = []  # [method, n, answer] of every request so far
        path = _path(seed)
        self._runs = _pending.get(path) or _read(path)  # the kept runs, each like ``asked``
        self._alike = self._runs  # the kept runs whose requests were all the same so far
        self._generator = None  # made at the first request no kept run made

    def integers(self, n) -> int:
        return self._answer("integers", int(n))

    def permutation(self, n) -> list[int]:
        return self._answer("permutation", int(n))

    def _answer(self, method: str, n: int):
        at = len(self.asked)
        if self._generator is None:
            self._alike = [run for run in self._alike
                           if len(run) > at and _possible(run[at], method, n)]
            if not self._alike:
                self._generator = self._caught_up()
        if self._generator is None:
            answer = self._alike[0][at][2]
        else:
            answer = np.asarray(getattr(self._generator, method)(n)).tolist()
        self.asked.append([method, n, answer])
        return answer

    def _caught_up(self):
        """A generator of this seed, asked again what was asked so far."""
        generator = np.random.default_rng(self.seed)
        for method, n, _ in self.asked:
            getattr(generator, method)(n)
        return generator

    def keep(self) -> None:
        """Keep this run for the next, if a generator had to be made (first, before the other
        kept runs): written when the process ends (``write_kept``), so that rendering a page
        writes no file, as no renderer does."""
        if self._generator is None:
            return
        path = _path(self.seed)
        runs = [self.asked, *(run for run in self._runs if run != self.asked)][:RUNS]
        if not _pending:
            atexit.register(write_kept)
        _pending[path] = runs


_pending: dict[str, list] = {}  # file → the runs it will keep, written at exit


def write_kept() -> None:
    """Write the runs kept by this process to their files."""
    while _pending:
        path, runs = _pending.popitem()
        user_cache.write(path, json.dumps(runs).encode("utf-8"))


def _path(seed: int) -> str:
    return user_cache.path(f"draws-numpy-{np.__version__}-seed-{seed}.json")


def _read(path: str) -> list[list]:
    """The kept runs, if the file is the user's own and holds a list of lists (each draw is
    checked when it is used: ``_possible``); else none."""
    try:
        runs = json.loads(user_cache.read(path) or b"[]")
    except (ValueError, RecursionError):  # not JSON, or nested past the parser
        return []
    if not isinstance(runs, list) or not all(isinstance(run, list) for run in runs):
        return []
    return runs


def _possible(draw, method: str, n: int) -> bool:
    """Whether a kept draw is a request ``method(n)`` and an answer the generator could give."""
    if not isinstance(draw, list) or len(draw) != 3 or draw[0] != method or draw[1] != n \
            or type(draw[1]) is not int:
        return False
    answer = draw[2]
    if method == "integers":
        return type(answer) is int and 0 <= answer < n
    return (isinstance(answer, list) and all(type(i) is int for i in answer)
            and sorted(answer) == list(range(n)))
