"""What the user sees of a run: a rich progress bar, per-epoch lines, a sparkline, a plot."""

from __future__ import annotations

import math

from .. import i18n

TICKS = "▁▂▃▄▅▆▇█"



def sparkline(values, width: int = 60) -> str:
    """One character per point (averaged into ``width`` buckets), ▁ lowest to █ highest."""
    values = [v for v in values if math.isfinite(v)]
    if not values:
        return ""
    if len(values) > width:
        step = len(values) / width
        values = [sum(values[int(i * step):max(int((i + 1) * step), int(i * step) + 1)])
                  / max(1, int((i + 1) * step) - int(i * step)) for i in range(width)]
    lo, hi = min(values), max(values)
    span = hi - lo or 1.0
    return "".join(TICKS[min(7, int((v - lo) / span * 8))] for v in values)


def epoch_line(stats: dict, epochs: int, lang: str = "en") -> str:
    t = i18n.table(lang)
    epoch, loss, acc = t["train.epoch"], t["train.loss"], t["train.acc"]
    line = (f"{epoch} {stats['epoch']:>{len(str(epochs))}}/{epochs}  {loss} "
            f"{stats['loss']:.4f}  {acc} {stats['accuracy']:.1%}")
    if "val_loss" in stats:
        line += (f"  {t['train.val']}: {loss} {stats['val_loss']:.4f} "
                 f"{acc} {stats['val_accuracy']:.1%}")
    return line


class Progress:
    """A rich progress bar over every pair of every epoch, with the last epoch's numbers."""

    def __init__(self, total_pairs: int, done_pairs: int, epochs: int, lang: str = "en",
                 console=None, every: int | None = None):
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
        from rich.progress import Progress as RichProgress

        self.epochs, self.lang = epochs, lang
        self.every = every or max(1, epochs // 10)
        self.bar = RichProgress(TextColumn("{task.description}"), BarColumn(),
                                MofNCompleteColumn(), TimeRemainingColumn(), console=console,
                                transient=True)
        self.task = self.bar.add_task(i18n.t(lang, "train.epoch"), total=total_pairs,
                                      completed=done_pairs)

    def __enter__(self):
        self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        return self.bar.__exit__(*exc)

    def on_batch(self, pairs: int) -> None:
        self.bar.advance(self.task, pairs)

    def on_epoch(self, stats: dict) -> None:
        line = epoch_line(stats, self.epochs, self.lang)
        self.bar.update(self.task, description=line)
        if stats["epoch"] % self.every == 0 or stats["epoch"] == self.epochs:
            self.bar.console.print(line, highlight=False)
