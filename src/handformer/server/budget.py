"""What a request would compute, counted before any work; and one budget for the whole server.

Each field has its cap (limits.py), but caps multiply: 48-word sentences × 16 heads × 6 layers
× backward is within every cap and still a 200 MB answer. So a walk is priced by the numbers
its tapes would hold (limits.tape_numbers, the CLI's own upper estimate, plus its weights),
and a request over ``max_request_numbers`` is refused with 422 naming its total. Requests
then share ``max_server_numbers``: one waits (at most ``wait_seconds``) until the running ones
leave room, so N clients cannot take more memory than the server's budget between them.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

from ..limits import tape_numbers
from ..text import make_example, size_of
from .limits import Limits, RequestError, weight_count


def walk_numbers(walk) -> int:
    """Numbers one walk request's tape holds at most: the forward steps (twice, with their
    gradients, for backward), and its weights (four times for backward: the gradient and the
    update's before and after)."""
    s = walk.setup
    example = make_example(s.vocab, walk.src, walk.tgt, s.config.max_len)
    n, m = len(example.src_ids), len(example.tgt_ids)
    if not s.config.encoder_layers:  # decoder-only: one text, the source then the target
        n, m = 0, n + m
    steps = tape_numbers(s.config, n, m, len(s.vocab.target))
    weights = weight_count(walk.family, s.config, size_of(s.vocab))
    return 2 * steps + 4 * weights if walk.backward else steps + weights


def check_numbers(total: int, limits: Limits, field: str | None = None) -> int:
    """Refuse a request whose tapes would hold more than ``max_request_numbers`` numbers."""
    if total > limits.max_request_numbers:
        raise RequestError(f"this request would put {total:,} numbers on its tapes, more than "
                           f"this server's limit of {limits.max_request_numbers:,}; use "
                           "shorter sentences, fewer heads or layers, a smaller d_model, or "
                           "no backward", field)
    return total


class Budget:
    """Numbers in flight across the server, never above ``capacity``; a request waits its
    turn for at most ``wait_seconds``, then is answered 503."""

    def __init__(self, capacity: int, wait_seconds: float):
        self.capacity, self.wait_seconds = capacity, wait_seconds
        self.in_flight = 0
        self._room = threading.Condition()

    @contextmanager
    def hold(self, numbers: int):
        numbers = min(numbers, self.capacity)  # a request alone always fits
        self._take(numbers)
        try:
            yield
        finally:
            with self._room:
                self.in_flight -= numbers
                self._room.notify_all()

    def _take(self, numbers: int) -> None:
        deadline = time.monotonic() + self.wait_seconds
        with self._room:
            while self.in_flight + numbers > self.capacity:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RequestError("the server is busy with other requests; try again "
                                       "in a moment", None, 503)
                self._room.wait(left)
            self.in_flight += numbers
