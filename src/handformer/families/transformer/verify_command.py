"""`handformer verify` for the encoder-decoder (its registry entry's ``verify_report``): the
model against torch.nn.Transformer, or the same model in torch's functions, stage by stage,
each row once for one pair and once inside a padded batch."""

from __future__ import annotations


def report(options: dict, tol: float) -> bool:
    """Build the model from the command's options, compare it with torch (``reference``:
    auto, nn or functional), print the table and say whether every row is within ``tol``."""
    from ...interop.torch_ref import import_torch
    from ...text import TUTORIAL_SRC, TUTORIAL_TGT
    from .run import configure, setup
    from .torch_ref import check_expressible
    from .verify import verify

    reference = options.pop("reference")
    src, tgt = options.pop("src"), options.pop("tgt")  # "" is an empty sentence, not the default
    src, tgt = TUTORIAL_SRC if src is None else src, TUTORIAL_TGT if tgt is None else tgt
    corpus, weights = options.pop("corpus"), options.pop("weights")
    config = configure(options)  # what is left: --preset and the config's fields
    if weights is None and reference == "nn":
        check_expressible(config)  # before building weights that torch could not take
    import_torch()
    s = setup(config, corpus, weights)
    checked = verify(s, src, tgt, tol, reference)
    _print(checked, s.config)
    return checked.passed


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
