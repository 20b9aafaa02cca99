"""Every numeric option of every command has bounds, states them in --help, and refuses a value
outside them in one line (issue 45, item 4: `exercises --seed -1` crashed in numpy with
"expected non-negative integer")."""

from __future__ import annotations

import click
import pytest

from handformer.cli import main
from support.clirun import refused_by_main

SEED_MAX = 4294967295  # 2**32 - 1, the web app's quiz seed range too


def commands() -> dict[str, click.Command]:
    ctx = click.Context(main)
    return {name: main.get_command(ctx, name) for name in main.list_commands(ctx)}


def numeric_options():
    for name, command in commands().items():
        for param in command.params:
            if isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType)):
                yield name, param


NUMERIC = list(numeric_options())
SEEDS = [(name, param.opts[0]) for name, param in NUMERIC
         if param.opts[0] in ("--seed", "--weights-seed")]


def refusal(capsys, argv) -> str:
    return refused_by_main(capsys, argv, "Usage:")


def test_every_seed_option_is_found():
    names = {name for name, _ in SEEDS}
    assert {"walk", "train", "verify", "exercises", "generate"} <= names
    assert ("exercises", "--weights-seed") in SEEDS and ("exercises", "--seed") in SEEDS


@pytest.mark.parametrize("command, flag", [(c, f) for c, param in NUMERIC
                                           for f in param.opts[:1]])
def test_every_numeric_option_has_bounds_that_help_states(command, flag):
    param = next(p for p in commands()[command].params if p.opts[0] == flag)
    assert isinstance(param.type, click.types._NumberRangeBase), (command, flag, param.type)
    assert param.type.min is not None or param.type.max is not None, (command, flag)
    help_text = " ".join(param.get_help_record(click.Context(commands()[command]))[1].split())
    assert "x" in help_text and ("<" in help_text or ">" in help_text), help_text


@pytest.mark.parametrize("command, flag", SEEDS)
@pytest.mark.parametrize("value, bound", [("-1", "at least 0"),
                                          (str(SEED_MAX + 1), "at most 4,294,967,295")])
def test_every_seed_out_of_range_is_one_line(capsys, command, flag, value, bound):
    args = [command, "hi"] if command == "generate" else [command]
    line = refusal(capsys, [*args, flag, value])
    assert line == f"error: {flag} must be {bound}, got {value}"


@pytest.mark.parametrize("command, flag", SEEDS)
def test_every_seed_states_its_range_in_help(capsys, command, flag):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert f"0<=x<={SEED_MAX}" in shown


def test_the_largest_sheet_seed_still_makes_a_sheet(capsys):
    with pytest.raises(SystemExit) as done:
        main(["exercises", "--seed", str(SEED_MAX), "--count", "2", "--format", "json"])
    assert done.value.code in (0, None)
    assert '"questions"' in capsys.readouterr().out


@pytest.mark.parametrize("argv, line", [
    (["exercises", "--count", "0"], "error: --count must be at least 1, got 0"),
    (["exercises", "--count", "201"], "error: --count must be at most 200, got 201"),
    (["train", "--epochs", "0"], "error: --epochs must be at least 1, got 0"),
    (["train", "--batch-size", "-4"], "error: --batch-size must be at least 1, got -4"),
    (["train", "--lr", "0"], "error: --lr must be more than 0, got '0'"),
    (["train", "--lr", "101"], "error: --lr must be at most 100, got '101'"),
    (["train", "--momentum", "1"], "error: --momentum must be less than 1, got '1'"),
    (["serve", "--port", "65536"], "error: --port must be at most 65,535, got 65536"),
    (["walk", "--shards", "0"], "error: --shards must be at least 1, got 0"),
    (["translate", "--top-k", "51", "hi"], "error: --top-k must be at most 50, got 51"),
    (["walk", "--seed", "9" * 5000], "error: --seed needs a whole number, got 5,000 characters"),
])
def test_counts_and_rates_out_of_range_are_one_line(capsys, argv, line):
    assert refusal(capsys, argv) == line


def test_the_cli_learning_rate_cap_is_the_library_one():
    from handformer.commands.train import MAX_LR
    from handformer.train.options import MAX_LR as LIBRARY_MAX_LR

    assert MAX_LR == LIBRARY_MAX_LR == 100.0
