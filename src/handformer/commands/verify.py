"""`handformer verify`: the engine against torch.nn.Transformer, stage by stage."""

from __future__ import annotations

import sys

import click

from ..cli import Registered, config_from_options, family_names, model_options, user_errors
from ..cli_checks import Finite
from ..errors import HandformerError


@click.command()
@model_options
@click.option("--tol", type=Finite(lo=0.0), default=1e-10, show_default=True,
              help="largest allowed |ours − torch| at any stage")
@click.option("--reference", type=click.Choice(["auto", "nn", "functional"]), default="auto",
              show_default=True, help="nn: torch.nn.Transformer; functional: the same model "
              "written with torch's functions (any config, e.g. the tutorial preset's d_k 4 with "
              "d_model 6); auto: nn where it can build the config, else functional")
@click.option("--family", type=Registered(lambda: family_names("verify")), default="transformer",
              show_default=True, help="transformer: against torch.nn.Transformer; another "
              "family against its own torch model (gpt: one built from torch's layers, every "
              "gradient too)")
@user_errors
def verify(**options):
    """Build the same model in PyTorch (float64, dropout off) and compare every stage, the
    loss and every parameter's gradient.

    Exit status 0 if every row agrees within --tol, 1 if one does not, 2 if torch is missing
    or --reference nn cannot express this config (e.g. the tutorial preset's d_k 4 with
    d_model 6).
    """
    from ..families.registry import refuse_foreign
    from ..families.transformer.run import setup
    from ..interop.torch_ref import check_expressible, import_torch
    from ..interop.verify import verify as run_verify
    from ..text import TUTORIAL_SRC, TUTORIAL_TGT

    tol = options.pop("tol")
    family = options.pop("family")
    options = refuse_foreign(family, options)
    reference = options.pop("reference")
    if family != "transformer":
        if reference != "auto":
            raise HandformerError(f"--reference is the encoder-decoder's; the {family} family "
                                  f"has one torch model")
        return _verify_family(family, options, tol)
    src, tgt = options.pop("src"), options.pop("tgt")  # "" is an empty sentence, not the default
    src, tgt = TUTORIAL_SRC if src is None else src, TUTORIAL_TGT if tgt is None else tgt
    corpus, weights = options.pop("corpus"), options.pop("weights")
    config = config_from_options(options)
    if weights is None and reference == "nn":
        check_expressible(config)  # before building weights that torch could not take
    import_torch()
    s = setup(config, corpus, weights)
    report = run_verify(s, src, tgt, tol, reference)
    _print(report, s.config)
    sys.exit(0 if report.passed else 1)


def _verify_family(name: str, options: dict, tol: float) -> None:
    """Another family's own check against torch (its registry entry's ``verify``): every row
    it compares, within --tol or not."""
    from rich.console import Console
    from rich.table import Table

    from ..families import registry

    family = registry.get(name)
    if family.verify is None:
        raise HandformerError(f"the {name} family has no check against torch")
    title, rows = family.verify(options)
    table = Table(title=title, title_justify="left")
    for column, justify in (("stage", "left"), ("shape", "right"), ("max |diff|", "right"),
                            ("", "center")):
        table.add_column(column, justify=justify)
    for row, shape, diff in rows:
        table.add_row(row, "×".join(map(str, shape)), f"{diff:.1e}",
                      "[green]ok[/]" if diff <= tol else "[bold red]FAIL[/]")
    console = Console(highlight=False)
    console.print(table)
    worst = max(rows, key=lambda r: r[2])
    passed = worst[2] <= tol
    console.print(f"{'[bold green]PASS[/]' if passed else '[bold red]FAIL[/]'}: {len(rows)} "
                  f"stages and gradients, tolerance {tol:.0e}, largest {worst[2]:.1e} at "
                  f"{worst[0]}")
    sys.exit(0 if passed else 1)


def _print(report, cfg) -> None:
    from rich.console import Console
    from rich.table import Table

    info = report.batch_info
    against = ("torch.nn.Transformer" if report.reference == "nn" else
               "the same model in torch functions (torch_mirror.py)")
    table = Table(title=f"ours vs {against}, preset {cfg.preset}, float64",
                  title_justify="left")
    table.add_column("stage")
    table.add_column("shape", justify="right")
    table.add_column("max |diff|", justify="right")
    table.add_column(f"padded batch {info['shape'][0]}", justify="right")
    table.add_column("", justify="center")
    for s in report.rows:
        mark = "[green]ok[/]" if s.worst <= report.tol else "[bold red]FAIL[/]"
        table.add_row(s.name, "×".join(map(str, s.shape)), f"{s.single:.1e}", f"{s.batch:.1e}",
                      mark)
    console = Console(highlight=False)
    if report.reference == "functional" and report.unsupported:
        console.print("torch.nn.Transformer cannot build this config, so the reference is "
                      "written with torch's functions (embedding, softmax, layer_norm, relu, "
                      "cross_entropy, autograd):\n  - " + "\n  - ".join(report.unsupported))
    console.print(table)
    console.print(f"padded batch: {info['src_pad']} padded source position(s), "
                  f"{info['tgt_pad']} padded target position(s); the loss is the mean "
                  f"cross-entropy over the batch's real positions")
    worst = report.worst
    verdict = "[bold green]PASS[/]" if report.passed else "[bold red]FAIL[/]"
    console.print(f"{verdict}: {len(report.stages)} stages, the loss and {len(report.grads) - 1} "
                  f"gradients, tolerance {report.tol:.0e}, largest {worst.worst:.1e} at "
                  f"{worst.name}")


COMMANDS = [verify]
