"""support.clirun.run_here, the in-process runner of the hostile cases, against what a real
process shows: the same exit status and bytes, and the failures a process would show (a
traceback, NumPy's warnings) are not swallowed by running in pytest."""

import click
import numpy as np
import pytest

from handformer.cli import main
from support.clirun import refused, run, run_here


@pytest.fixture
def command(monkeypatch):
    """Add a throwaway command to handformer's group for one test."""

    def add(function):
        monkeypatch.setitem(main.commands, function.name, function)
        return function.name

    return add


def test_an_uncaught_exception_is_a_traceback_and_status_1(command, tmp_path):
    @click.command("boom")
    def boom():
        raise ValueError("raw library message")

    done = run_here(command(boom), cwd=tmp_path)
    assert done.returncode == 1
    assert b"Traceback" in done.stderr and b"ValueError: raw library message" in done.stderr
    with pytest.raises(AssertionError, match="Traceback"):
        refused(done)


def test_numpy_warnings_reach_stderr_as_in_a_fresh_interpreter(command, tmp_path):
    @click.command("overflow")
    def overflow():
        click.echo(str(np.float64(1e308) * 10))

    done = run_here(command(overflow), cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == b"inf\n"
    assert b"RuntimeWarning: overflow encountered" in done.stderr


def test_folder_and_environment_are_the_cases_and_restored(command, tmp_path, monkeypatch):
    import os

    monkeypatch.setenv("HANDFORMER_LIMITS", "walk_numbers=1")

    @click.command("where")
    def where():
        click.echo(f"{os.getcwd()} {os.environ.get('HANDFORMER_LIMITS')} "
                   f"{os.environ.get('COLUMNS')} {os.environ.get('EXTRA')}")

    before = os.getcwd()
    done = run_here(command(where), cwd=tmp_path, env={"EXTRA": "x"})
    assert done.stdout.decode().split() == [str(tmp_path), "None", "100", "x"]
    assert os.getcwd() == before and os.environ["HANDFORMER_LIMITS"] == "walk_numbers=1"
    assert "EXTRA" not in os.environ


@pytest.mark.process
@pytest.mark.parametrize("args", [
    ["walk", "--steps", "1"],
    ["walk", "--steps", "99"],
    ["walk", "--no-such-flag"],
    ["train", "--lr", "nan"],
    ["translate", "--checkpoint", "missing.ckpt", "you win"],
    ["walk", "--src", "\x1b[2Jboom \u202eevil"],
])
def test_the_same_bytes_and_status_as_a_process(tmp_path, args):
    here, there = run_here(*args, cwd=tmp_path), run(*args, cwd=tmp_path)
    assert (here.returncode, here.stdout, here.stderr) == (
        there.returncode, there.stdout, there.stderr)
