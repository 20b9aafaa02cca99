"""What the user sees of a run: a rich progress bar, per-epoch lines, a sparkline, a plot."""

from __future__ import annotations

import math

from .. import i18n
from ..textsafe import one_line

TICKS = "▁▂▃▄▅▆▇█"
# Training pairs the end-of-run summary evaluates under teacher forcing: the first ones, in
# the split's order (a fixed subset: 1,000 Tatoeba pairs took 13 s at d_model 128, the
# whole 53,000 would take minutes).
SUMMARY_PAIRS = 500


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


def scores_text(lang: str, bleu: float, chrf: float, bleu_lower: float, tokenize: str) -> str:
    """BLEU (sacrebleu's default: cased), chrF2 and the lower-cased BLEU, labelled."""
    return i18n.t(lang, "train.scores", bleu=bleu, chrf=chrf, lower=bleu_lower,
                  tokenize=tokenize)


def epoch_line(stats: dict, epochs: int, lang: str = "en", tokenize: str = "13a") -> str:
    t = i18n.table(lang)
    epoch, loss, acc = t["train.epoch"], t["train.loss"], t["train.acc"]
    line = (f"{epoch} {stats['epoch']:>{len(str(epochs))}}/{epochs}  {loss} "
            f"{stats['loss']:.4f}  {acc} {stats['accuracy']:.1%}")
    if "val_loss" in stats:
        line += (f"  {t['train.val']}: {loss} {stats['val_loss']:.4f} "
                 f"{acc} {stats['val_accuracy']:.1%}")
    if "val_chrf" in stats:
        line += "  " + scores_text(lang, stats["val_bleu"], stats["val_chrf"],
                                   stats["val_bleu_lower"], tokenize)
    elif "val_bleu" in stats:  # a history written before chrF was kept
        line += f" BLEU {stats['val_bleu']:.2f}"
    return line


class Progress:
    """A rich progress bar over every pair of every epoch, with the last epoch's numbers."""

    def __init__(self, total_pairs: int, done_pairs: int, epochs: int, lang: str = "en",
                 console=None, every: int | None = None, tokenize: str = "13a"):
        import time

        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
        from rich.progress import Progress as RichProgress

        self.epochs, self.lang, self.tokenize = epochs, lang, tokenize
        self.every = every or max(1, epochs // 10)
        self.clock, self.started, self.tokens = time.perf_counter, time.perf_counter(), 0
        self.bar = RichProgress(TextColumn("{task.description}"), BarColumn(),
                                MofNCompleteColumn(), TextColumn("{task.fields[speed]}"),
                                TimeRemainingColumn(), console=console, transient=True)
        self.task = self.bar.add_task(i18n.t(lang, "train.epoch"), total=total_pairs,
                                      completed=done_pairs, speed="")

    def __enter__(self):
        self.bar.__enter__()
        return self

    def __exit__(self, *exc):
        return self.bar.__exit__(*exc)

    def on_batch(self, pairs: int, tokens: int = 0) -> None:
        """Advance by a batch; the speed is target tokens per second since the start."""
        self.tokens += tokens
        rate = self.tokens / max(self.clock() - self.started, 1e-9)
        self.bar.update(self.task, advance=pairs,
                        speed=i18n.t(self.lang, "train.tps", rate=rate) if tokens else "")

    def on_epoch(self, stats: dict) -> None:
        line = epoch_line(stats, self.epochs, self.lang, self.tokenize)
        self.bar.update(self.task, description=line)
        if stats["epoch"] % self.every == 0 or stats["epoch"] == self.epochs:
            self.bar.console.print(line, highlight=False)


def training_figures(run) -> tuple[dict, int]:
    """Loss, token accuracy and exact match of the final weights on the first SUMMARY_PAIRS
    training pairs (every pair of a smaller corpus), and how many pairs that was."""
    from .loop import evaluate

    subset = run.train[:SUMMARY_PAIRS]
    return evaluate(run.params, run.config, run.vocab, subset, dtype=run.options.dtype), len(subset)


def validation_figures(run) -> dict:
    """The final weights' validation loss and accuracy: the last epoch's own (computed on
    these weights, over every validation pair), else computed now."""
    from .loop import evaluate

    last = run.history[-1] if run.history else {}
    if "val_loss" in last and "val_accuracy" in last:
        return {"loss": last["val_loss"], "accuracy": last["val_accuracy"]}
    return evaluate(run.params, run.config, run.vocab, run.valid, dtype=run.options.dtype)


def test_summary(run, source: str, lang: str, shown: int = 3, params=None) -> None:
    """Loss, BLEU and chrF2 on the held-out test pairs, and a few of them translated, by
    ``params`` (None: the run's own weights)."""
    import click

    from ..families.registry import for_pairs
    from .bleu import corpus_scores
    from .datasets import target_language
    from .loop import evaluate

    params = run.params if params is None else params
    m = evaluate(params, run.config, run.vocab, run.test, dtype=run.options.dtype)
    sources, targets = zip(*run.texts["test"], strict=True)
    hyps = for_pairs().pairs.translate_all(params, run.config, run.vocab, list(sources))
    s = corpus_scores(hyps, list(targets), target_language(source))
    click.echo(i18n.t(lang, "train.test", n=len(run.test), loss=m["loss"], acc=m["accuracy"],
                      scores=scores_text(lang, s.bleu, s.chrf, s.bleu_lower, s.tokenize)))
    click.echo(i18n.t(lang, "train.examples"))
    for src, ref, hyp in list(zip(sources, targets, hyps, strict=True))[:shown]:
        click.echo(f"  {one_line(src)}\n    → {one_line(hyp)}\n    ({one_line(ref)})")
