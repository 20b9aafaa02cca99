"""`handformer verify`: a family's model against its torch twin, stage by stage (the family's
registry entry's ``verify_report``, which prints its own table, or ``verify``'s rows)."""

from __future__ import annotations

import sys

import click

from ..cli import Registered, model_options, user_errors
from ..cli_checks import Finite
from ..errors import HandformerError
from ..families.registry import DEFAULT, notes_for


@click.command()
@model_options
@click.option("--tol", type=Finite(lo=0.0), default=1e-10, show_default=True,
              help="largest allowed |ours − torch| at any stage")
@click.option("--reference", type=click.Choice(["auto", "nn", "functional"]), default="auto",
              show_default=True, help=notes_for("reference"))
@click.option("--family", type=Registered(lambda: _checked_families()), default=DEFAULT,
              show_default=True, help=notes_for("verify"))
@user_errors
def verify(**options):
    """Build the same model in PyTorch (float64, dropout off) and compare every stage, the
    loss and every parameter's gradient.

    Exit status 0 if every row agrees within --tol, 1 if one does not, 2 if torch is missing
    or --reference nn cannot express this config (e.g. the tutorial preset's d_k 4 with
    d_model 6).
    """
    from ..families import registry

    tol = options.pop("tol")
    family = registry.get(options.pop("family"))
    options = registry.refuse_foreign(family.name, options)
    if family.verify_report is not None:  # its own table (e.g. one pair and a padded batch)
        sys.exit(0 if family.verify_report(options, tol) else 1)
    if options.pop("reference") != "auto":
        raise HandformerError(f"--reference chooses among the torch models of a family that "
                              f"has several; the {family.name} family has one")
    return _verify_family(family.name, options, tol)


def _checked_families() -> list[str]:
    """The families with a check against torch: rows (``verify``) or their own table
    (``verify_report``)."""
    from ..families import registry

    return [name for name in registry.names() if registry.get(name).verify is not None
            or registry.get(name).verify_report is not None]


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


COMMANDS = [verify]
