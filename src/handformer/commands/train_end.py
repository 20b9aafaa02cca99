"""The last lines of `handformer train`: why training ended when the time budget or its fitted
schedule ended it, and the test part's line of the best checkpoint (the weights a user
evaluates afterwards), after a normal end, the budget's end, Ctrl-C or SIGTERM alike."""

from __future__ import annotations

from pathlib import Path

import click

from .. import i18n
from ..textsafe import one_line


def say_why_ended(run, lang: str) -> None:
    """One line when the time budget, or the schedule fitted to it, ended training."""
    from ..train.budget import schedule_done

    if not run.ended:
        return
    o = run.options
    if schedule_done(run):
        click.echo(i18n.t(lang, "train.schedule_end", total=o.total_steps, epoch=run.epoch))
    else:
        click.echo(i18n.t(lang, "train.budget_end", minutes=o.time_budget, epoch=run.epoch,
                          step=run.optimizer.step_count, total=o.total_steps or "?"))


def _of_this_run(ckpt, run) -> bool:
    """A checkpoint this run wrote (or the run it resumed): same model, vocabulary, and a
    history that is the start of the run's own (never a stale file of another run)."""
    return (ckpt.config == run.config and ckpt.vocab == run.vocab and ckpt.epoch <= run.epoch
            and list(ckpt.history) == list(run.history[:ckpt.epoch]))


def best_checkpoint(run, save) -> tuple[str, object] | None:
    """(path, checkpoint) of the best weights: NAME.best.ckpt where early stopping kept one,
    else the --save file; None when this run wrote neither."""
    from ..errors import HandformerError
    from ..train import checkpoint, loop

    paths = (loop.best_path(save), save) if run.options.patience else (save,)
    for path in paths:
        if save is None or not Path(path).is_file():
            continue
        try:
            ckpt = checkpoint.load(path)
        except HandformerError:
            continue
        if _of_this_run(ckpt, run):
            return str(path), ckpt
    return None


def test_line(run, save, source: str, lang: str) -> None:
    """The test part scored with the best checkpoint's weights (named first), or with the
    run's own weights where no checkpoint was written."""
    from ..train import report

    if not run.test:
        return
    found = best_checkpoint(run, save)
    if found is None:
        report.test_summary(run, source, lang)
        return
    path, ckpt = found
    click.echo(i18n.t(lang, "train.test_best", path=one_line(path), epoch=ckpt.epoch))
    report.test_summary(run, source, lang, params=ckpt.params)


def test_line_after_interrupt(run, save, source: str, lang: str) -> None:
    """After Ctrl-C or SIGTERM: the saved best checkpoint's test line (a second Ctrl-C skips
    it; a second SIGTERM ends the process, as its handler is the default again)."""
    if run.saved_epoch is None and not run.history:
        return
    try:
        found = best_checkpoint(run, save)
        if found is not None:
            test_line(run, save, source, lang)
    except KeyboardInterrupt:
        pass
