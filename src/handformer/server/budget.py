"""What a request would compute, counted before any work; and one budget for the whole server.

Each field has its cap (limits.py), but caps multiply: 48-word sentences × 16 heads × 6 layers
× backward is within every cap and still a 200 MB answer. So a walk is priced by the numbers
its tapes would hold (limits.tape_numbers, the CLI's own upper estimate, plus its weights),
and a request over ``max_request_numbers`` is refused with 422 naming its total. Requests
then share ``max_server_numbers``: one waits (at most ``wait_seconds``) until the running ones
leave room, so N clients cannot take more memory than the server's budget between them.

A training job is priced the same way, per step (train_numbers): the activations a step keeps
for backward at its batch size and lengths, its gradients and the optimizer's moments; a job
whose step is over ``max_step_numbers`` is refused with 422 naming the batch_size that would
fit. Each step (and each evaluation) then holds its price in the same budget while it runs; a
step larger than the whole budget runs alone.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
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
    if getattr(walk, "sample", None):  # one more position, and the check's whole forward pass
        steps *= 3
    weights = weight_count(walk.family, s.config, size_of(s.vocab))
    return 2 * steps + 4 * weights if walk.backward else steps + weights


EVAL_BATCH = 64  # pairs per batch of train.loop.evaluate (validation and the final score)


def train_numbers(cfg, words: int, weights: int, lengths, batch_size: int) -> int:
    """Numbers one training step (or evaluation) holds at most, beyond the model's weights:
    ``B`` pairs' activations at the longest source and target (limits.tape_numbers: 1.4 to
    3.4 × what a training step allocates, measured at batch 16 to 96), and three numbers per
    weight (the gradient and Adam's two moments). ``lengths``: (source, target) token counts
    of every pair; B is the batch, or the evaluation's 64 pairs when larger, at most every pair."""
    n = max(s for s, _ in lengths)
    m = max(t for _, t in lengths) + 1  # <start> y, and y <end>
    batch = min(max(batch_size, EVAL_BATCH), len(lengths))
    return batch * tape_numbers(cfg, n, m, words) + 3 * weights


def check_train(price, limits: Limits, batch_size: int) -> int:
    """Refuse a job whose step (``price(batch_size)``) is over ``max_step_numbers``, naming
    the largest batch_size that fits, or why none does."""
    total = price(batch_size)
    if total <= limits.max_step_numbers:
        return total
    if price(EVAL_BATCH) > limits.max_step_numbers:  # the least any batch_size costs
        hint = ("no batch_size fits (an evaluation batch alone is over it): use fewer or "
                "shorter pairs, fewer distinct words, or a smaller model")
    else:
        low, high = EVAL_BATCH, batch_size  # price(low) fits, price(high) does not
        while high - low > 1:
            mid = (low + high) // 2
            low, high = (mid, high) if price(mid) <= limits.max_step_numbers else (low, mid)
        hint = f"batch_size {low:,} or less would fit"
    raise RequestError(f"a training step of this job would hold {total:,} numbers, more than "
                       f"this server's limit of {limits.max_step_numbers:,}; {hint}",
                       "batch_size")


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
    turn for at most ``wait_seconds``, then is answered 503. Turns are first come, first
    served, so a stream of training steps cannot keep a walk waiting past its turn."""

    def __init__(self, capacity: int, wait_seconds: float):
        self.capacity, self.wait_seconds = capacity, wait_seconds
        self.in_flight = 0
        self._room = threading.Condition()
        self._queue: deque = deque()  # the waiting requests' tickets, oldest first

    @contextmanager
    def hold(self, numbers: int, stop: threading.Event | None = None):
        """Hold ``numbers`` while the block runs. With ``stop`` (a training job's), wait as
        long as it takes, until ``stop`` is set: then a 503 RequestError."""
        numbers = min(numbers, self.capacity)  # a request alone always fits
        self._take(numbers, stop)
        try:
            yield
        finally:
            with self._room:
                self.in_flight -= numbers
                self._room.notify_all()

    def _take(self, numbers: int, stop: threading.Event | None) -> None:
        deadline = time.monotonic() + (math.inf if stop else self.wait_seconds)
        ticket = object()
        with self._room:
            self._queue.append(ticket)
            try:
                while self._queue[0] is not ticket or self.in_flight + numbers > self.capacity:
                    left = deadline - time.monotonic()
                    if left <= 0 or (stop is not None and stop.is_set()):
                        raise RequestError("the server is busy with other requests; try "
                                           "again in a moment", None, 503)
                    self._room.wait(min(left, 0.2))
                self.in_flight += numbers
            finally:
                self._queue.remove(ticket)
                self._room.notify_all()
