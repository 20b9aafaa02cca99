"""What a family's training does with its --save file, whatever the family: a checkpoint after
epochs (atomically, at most every ``interval`` seconds, the last always), and on Ctrl-C or
SIGTERM the last finished epoch saved and named before the run exits with status 130.

The encoder-decoder's loop (loop.py) hands its epochs to the same ``Saver``, with early
stopping and the best checkpoint beside them.
"""

from __future__ import annotations

import signal
import time
from contextlib import contextmanager

from . import checkpoint as ckpt_io

INTERRUPTED = 130  # the shell's status for a run ended by Ctrl-C (128 + SIGINT)
INTERVAL = 1.0  # seconds between writes at most: a run of tiny epochs is not all fsync


class Saver:
    """A run's checkpoints to one file. ``epoch_done(ckpt)`` hands over a copy of the run at
    the end of an epoch; it is written when ``interval`` seconds have passed since the last
    write (or ``last``), else kept until the next one or ``flush``. ``saved_epoch``: the epoch
    the file holds (None: this run wrote none yet)."""

    def __init__(self, path, interval: float | None = None):
        self.path, self.interval = path, INTERVAL if interval is None else interval
        self.saved_epoch: int | None = None
        self._pending = None
        self._last = time.monotonic()

    def epoch_done(self, ckpt, last: bool = False) -> None:
        self._pending = ckpt
        if last or time.monotonic() - self._last >= self.interval:
            self.flush()

    def flush(self) -> None:
        if self._pending is not None:
            ckpt_io.save(self.path, self._pending)
            self.saved_epoch = self._pending.epoch
            self._pending, self._last = None, time.monotonic()


def ctrl_c(signum, frame):
    """SIGTERM handled as Ctrl-C: a kill saves like an interrupt does."""
    raise KeyboardInterrupt


@contextmanager
def sigterm_as_ctrl_c():
    previous = signal.signal(signal.SIGTERM, ctrl_c)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def say_interrupted(lang: str, path, epoch: int | None) -> None:
    """Which epoch the --save file holds now (train.interrupted), or that none was saved."""
    import click

    from .. import i18n
    from ..textsafe import one_line

    key = "train.interrupted_unsaved" if epoch is None else "train.interrupted"
    click.echo(i18n.t(lang, key, path=one_line(str(path)), epoch=epoch), err=True)


@contextmanager
def saved_on_interrupt(saver: Saver, lang: str, held_before: int | None = None):
    """Run the block with SIGTERM as Ctrl-C; on either, write the epoch the saver holds back,
    say which epoch the file holds (``held_before``: the epoch the file held when this run
    began, a resumed checkpoint's) and exit with status 130."""
    try:
        with sigterm_as_ctrl_c():
            yield
    except KeyboardInterrupt:
        saver.flush()
        epoch = held_before if saver.saved_epoch is None else saver.saved_epoch
        say_interrupted(lang, saver.path, epoch)
        raise SystemExit(INTERRUPTED) from None
