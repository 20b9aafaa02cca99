"""`handformer train`: the part the tutorial could not show (translate: translate.py, evaluate:
evaluate.py)."""

from __future__ import annotations

import click

from .. import i18n
from ..cli import (
    LanguageChoice,
    Registered,
    _config_options,
    config_from_options,
    family_names,
    user_errors,
)
from ..cli_checks import FileName, Finite, Whole, bpe_merges_option
from ..errors import HandformerError
from ..families.registry import DEFAULT
from ..textsafe import one_line, shown
from .train_options import RUN_KEYS, corpus_defaults, corpus_options, dataset_model

DEFAULT_CKPT = "handformer.ckpt"
MAX_LR = 100.0  # train/options.py's MAX_LR, written here so that --help loads no numpy


def _pairs(source):
    from ..train.datasets import load_pairs

    return load_pairs(source or "default")


@click.command()
@_config_options
@corpus_options
@click.option("--pairs", "pairs_file", type=click.Path(dir_okay=False), default=None,
              help="UTF-8 file, one 'source<TAB>target' per line (default: the tutorial's "
                   "three lines cut at the first comma)")
@click.option("--epochs", type=Whole(1, None), default=None,
              help="passes over the pairs  [default: 30 with --dataset, else 200]")
@click.option("--lr", type=Finite(0.0, MAX_LR, lo_open=True), default=None,
              help="learning rate (with --schedule warmup: its factor)  [default: 0.01]")
@click.option("--optimizer", type=click.Choice(["adam", "sgd"]), default=None,
              help="adam (β 0.9/0.98, ε 1e-9) or sgd with --momentum  [default: adam]")
@click.option("--momentum", type=Finite(0.0, 1.0, hi_open=True), default=None, help="SGD momentum  [default: 0.9]")
@click.option("--batch-size", type=Whole(1, None), default=None, help="pairs per step  [default: 16]")
@click.option("--schedule", type=click.Choice(["constant", "warmup"]), default=None,
              help="learning rate: constant, or the paper's warm-up  [default: constant]")
@click.option("--warmup", type=Whole(1, None), default=None, help="warm-up steps  [default: 4000]")
@click.option("--clip", type=Finite(0.0, None, lo_open=True), default=None, help="clip the gradient's global norm to this")
@click.option("--dtype", type=click.Choice(["float64", "float32"]), default=None,
              help="number type, kept end to end  [default: float64 for the tutorial's pairs, "
                   "float32 with --dataset or --pairs]")
@click.option("--save", default=None, metavar="FILE", type=FileName(),
              help="checkpoint written atomically while training (what translate reads)  "
                   f"[default: ./{DEFAULT_CKPT}; with --resume: the resumed file]")
@click.option("--resume", type=click.Path(dir_okay=False), default=None,
              help="continue a checkpoint's run (same pairs; --epochs may raise the total)")
@click.option("--plot", metavar="FILE", type=FileName(), default=None,
              help="draw the loss and accuracy curves to FILE.svg or FILE.png")
@click.option("--lang", type=LanguageChoice(), default="en", show_default=True)
@click.option("--quiet", is_flag=True, help="no progress bar or per-epoch lines")
@click.option("--family", type=Registered(lambda: family_names("train")), default=DEFAULT,
              show_default=True, help="transformer: the encoder-decoder on sentence pairs; "
              "gpt: the decoder-only model on plain text lines (--corpus)")
@click.option("--corpus", type=click.Path(dir_okay=False), default=None,
              help="with --family gpt: UTF-8 file, one text per line (default: the tutorial's "
                   "three lines)")
@bpe_merges_option
@user_errors
def train(**o):
    """Train the model on sentence pairs; checkpoint to --save (default ./handformer.ckpt).

    With no flags it trains the tutorial's model on its three lines (e.g. "when you play the
    game of thrones" → "you win or you die") in about a second; then `handformer translate
    "when you play the game of thrones"` reads ./handformer.ckpt.

    With --dataset and no flag that shapes the model it trains docs/translator.md's recipe:
    --preset small --d-model 128 --heads 4 --d-ff 512 --layers 2 --dropout 0.1
    --label-smoothing 0.1, --min-count 3, for 30 epochs or --time-budget 30 minutes.
    """

    if o["resume"]:
        o["family"] = _resumed_family(o)
    from ..families import registry

    family = registry.get(o["family"])
    if family.train is not None or family.pairs is None:  # its own training, or refused
        return _train_family(o)
    o = registry.refuse_foreign(o["family"], o)
    if o["tokenizer"] == "bpe" or o.pop("bpe_merges") is not None:
        raise HandformerError(f"--tokenizer bpe: the {o['family']} family does not learn "
                              "byte-level BPE; train it with --family gpt, or choose another "
                              "--tokenizer")
    if o.pop("corpus"):
        raise HandformerError("--corpus is the decoder-only model's plain text (--family gpt); "
                              "the encoder-decoder trains on sentence pairs: give --pairs FILE")
    if o["plot"] and not o["plot"].lower().endswith((".svg", ".png")):
        raise HandformerError("--plot writes an image: give FILE.svg or FILE.png")
    if o["plot"]:  # refused before training, not after it
        from ..render.plotting import need_matplotlib

        need_matplotlib()
    run_opts = {k: o.pop(k) for k in ("epochs", "lr", "optimizer", "momentum", "batch_size",
                                       "schedule", "warmup", "clip", "dtype", *RUN_KEYS)}
    given = {k: v for k, v in run_opts.items() if v is not None}
    o["dtype_given"] = "dtype" in given or bool(o["resume"])  # a resumed run keeps its own
    o["save"] = o["save"] or o["resume"] or DEFAULT_CKPT
    _check_train_outputs(o)
    device_and_backend = _torch_device(o)  # refused here, before any data is read
    from ..train.lock import held_by_saver

    with held_by_saver(o["save"]):
        run, source = _start_or_resume(o, given)
        if o["engine"] == "torch":
            from ..families.registry import for_pairs

            for_pairs().pairs.attach_torch(run, device_and_backend)
            if run.engine.rank:  # under torchrun, one process speaks and saves for all
                return _fit(run, o | {"quiet": True, "save": None}, source, primary=False)
        _fit(run, o, source)


def _torch_device(o: dict) -> tuple[str, str] | None:
    """With --engine torch: (device, backend), deterministic algorithms first if asked (before
    anything touches CUDA). The NumPy engine computes on the CPU, always deterministically."""
    device, deterministic = o.pop("device"), o.pop("deterministic")
    if o["engine"] != "torch":
        if device or deterministic:
            raise HandformerError("--device and --deterministic choose how torch computes: "
                                  "add --engine torch (the NumPy engine runs on the CPU and "
                                  "repeats exactly)")
        return None
    from ..interop.torch_ref import import_torch
    from ..train import torch_device

    torch = import_torch()
    if deterministic:
        torch_device.make_deterministic(torch)
    return torch_device.device_and_backend(torch, device or "auto")


def _resumed_family(o: dict) -> str:
    """The family of the --resume checkpoint (what --family, given, must agree with), so that
    `train --resume FILE` continues any family's run."""
    from ..train.checkpoint import load

    found = load(o["resume"], family=None).family
    ctx = click.get_current_context()
    named = ctx.get_parameter_source("family") not in (None, click.core.ParameterSource.DEFAULT)
    if named and o["family"] != found:
        raise HandformerError(f"{o['resume']!r} holds a model of the {found} family; drop "
                              f"--family {o['family']} (--resume continues its own family)")
    return found


def _train_family(o: dict) -> None:
    """Another family's own training (its registry entry's ``train``), told which options the
    user gave (the rest are the encoder-decoder's defaults)."""
    from ..families import registry

    if o["plot"] and not o["plot"].lower().endswith((".svg", ".png")):
        raise HandformerError("--plot writes an image: give FILE.svg or FILE.png")
    ctx = click.get_current_context()
    flags = {p.name: p.opts[0] for p in ctx.command.params}
    given = {name: flags.get(name, name) for name in o
             if ctx.get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT)}
    family = registry.get(o["family"])
    if family.train is None:
        raise HandformerError(f"the {family.name} family has no training by hand")
    family.train(o, given)


def _check_train_outputs(o: dict) -> None:
    """--save may be the resumed checkpoint (that is how a run continues), nothing else that
    is read; --plot may be none of them, nor --save."""
    from ..cli import check_outputs, same_file

    inputs = {"--pairs file": o["pairs_file"], "--resume checkpoint": o["resume"]}
    continued = o["resume"] and same_file(o["save"], o["resume"])
    check_outputs({"--save": o["save"]}, {"--pairs file": o["pairs_file"]} if continued else inputs)
    check_outputs({"--plot": o["plot"]}, inputs)
    check_outputs({"--plot": o["plot"], "--save": o["save"]}, {"--pairs file": o["pairs_file"]})


def _start_or_resume(o: dict, given: dict):
    from ..train import checkpoint, loop
    from ..train.datasets import source_name

    source = source_name(o.pop("dataset"), o.pop("pairs_file"), o.pop("direction"),
                         o.pop("levels"), o.pop("simplify"))
    if o["resume"]:
        ckpt = checkpoint.load(o["resume"])
        source = _stored_pairs(ckpt) if source == "default" else source
        extra = sorted(set(given) - {"epochs"})
        if extra:
            raise HandformerError(f"--resume continues the saved run with its own settings; "
                                  f"only --epochs may change (got --{extra[0].replace('_', '-')})")
        return loop.resume(ckpt, _pairs(source), given.get("epochs")), source
    o["recipe_model"] = dataset_model(o, source)
    cfg = config_from_options(o)
    options = loop.Options(**corpus_defaults(given, source, cfg.preset))
    return loop.start(cfg, _pairs(source), options, source), source


def _stored_pairs(ckpt) -> str:
    """A checkpoint names its pairs file, but never chooses what is read: the file a crafted
    checkpoint names could be any file on this machine. The user gives it again."""
    from ..train.datasets import is_dataset

    stored = ckpt.run.get("pairs", "default")
    if stored != "default" and not is_dataset(stored):
        raise HandformerError(f"this checkpoint was trained on the pairs file {stored[:200]!r}; give "
                              f"it again with --pairs FILE (a path stored in a checkpoint is "
                              f"never opened)")
    return stored


def _fit(run, o: dict, source: str, primary: bool = True) -> None:
    import numpy as np

    from ..train import loop, report
    from ..train.saving import INTERRUPTED, sigterm_as_ctrl_c

    first_epoch = run.epoch
    total = len(run.train) * run.options.epochs
    if primary:
        from .train_announce import announce

        announce(run, source, o["engine"], o["lang"], o["dtype_given"],
                 o.get("recipe_model", False))
    try:
        with sigterm_as_ctrl_c():  # a kill saves like Ctrl-C does
            if o["quiet"]:
                with np.errstate(all="ignore"):  # a diverging run stops with one message
                    loop.fit(run, o["save"], source)
            else:
                with report.Progress(total, len(run.train) * run.epoch, run.options.epochs,
                                     o["lang"], tokenize=_bleu_tokenizer(source)) as bar:
                    with np.errstate(all="ignore"):
                        loop.fit(run, o["save"], source, bar.on_batch, bar.on_epoch)
    except KeyboardInterrupt:
        if primary:  # the other ranks save nothing, so they have nothing to say
            _say_interrupted(run, o, first_epoch)
            from .train_end import test_line_after_interrupt

            test_line_after_interrupt(run, o["save"], source, o["lang"])
        raise SystemExit(INTERRUPTED) from None
    if primary:
        _summary(run, o, source)


def _bleu_tokenizer(source: str) -> str:
    from ..train.bleu import bleu_tokenizer
    from ..train.datasets import target_language

    return bleu_tokenizer(target_language(source))


def _say_interrupted(run, o: dict, first_epoch: int) -> None:
    """Which epoch the --save file holds now: this run's last save, the resumed checkpoint's
    own epoch when it is also the --save file, or nothing."""
    from ..cli import same_file
    from ..train.saving import say_interrupted

    epoch = run.saved_epoch
    if epoch is None and o["resume"] and same_file(o["resume"], o["save"]):
        epoch = first_epoch
    say_interrupted(o["lang"], o["save"], epoch)


def _summary(run, o: dict, source: str) -> None:
    from ..train import loop, report

    t = i18n.table(o["lang"])
    final, n = report.training_figures(run)
    losses = [h["loss"] for h in run.history]
    click.echo(f"{t['train.loss']}   {report.sparkline(losses)}  "
               f"{losses[0]:.4f} → {losses[-1]:.4f}")
    key = "train.after" if n == len(run.train) else "train.after_subset"
    click.echo(t[key].format(epochs=run.epoch, loss=final["loss"], acc=final["accuracy"],
                             exact=final["exact"], n=n, total=len(run.train)))
    if run.valid:
        v = report.validation_figures(run)
        click.echo(t["train.valid"].format(loss=v["loss"], acc=v["accuracy"]))
    from .train_end import say_why_ended, test_line

    say_why_ended(run, o["lang"])
    test_line(run, o["save"], source, o["lang"])
    if loop.stopped_early(run):
        said = "train.stopped_bleu" if run.options.stop_on == "bleu" else "train.stopped"
        click.echo(t[said].format(epoch=run.epoch, patience=run.options.patience,
                                  best=one_line(loop.best_path(o["save"]))))
    if o["plot"]:
        from ..cli import write_output
        from ..render.figure import loss_curve, plot_format

        write_output(loss_curve(run.history, plot_format(o["plot"]), o["lang"]), o["plot"],
                     done=t["train.wrote"].format(path=o["plot"]))
    from ..tokenize import detokenize

    example = shown(detokenize(run.vocab.source.decode(run.train[0][0])))
    if source == "default":  # the tutorial's lines: suggest the tutorial's own sentence
        from ..text import TUTORIAL_SRC

        example = TUTORIAL_SRC
    click.echo(t["train.saved"].format(path=one_line(o["save"]), src=example))


COMMANDS = [train]
