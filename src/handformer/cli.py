"""The command line: parse, call the library, render. Heavy imports stay inside the commands."""

from __future__ import annotations

import contextlib
import functools
import gc
import sys

import click

from .cli_checks import Finite, Whole
from .errors import HandformerError
from .textsafe import one_line, shown


@functools.cache
def config_fields() -> tuple[str, ...]:
    """What --preset's overrides may name: the sizes the families declare
    (registry.size_options), read from their options.py."""
    from .families.registry import size_options

    return tuple(option.name for option in size_options())


class LanguageChoice(click.Choice):
    """``--lang``: the languages of the i18n tables, listed when the option is read (so a table
    registered at run time is a choice too)."""

    def __init__(self):
        super().__init__([])

    @property
    def choices(self):
        from . import i18n

        return tuple(i18n.languages())

    @choices.setter
    def choices(self, value):  # click.Choice sets it; the tables decide
        pass


class Registered(click.Choice):
    """The names a registry holds, read when the command line is parsed, so a format or a
    family registered after this module was imported is a choice too."""

    def __init__(self, names):
        self._names = names
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(self._names())

    @choices.setter
    def choices(self, value) -> None:  # click.Choice sets its list; the registry holds it
        pass


def family_names(needs: str | None = None) -> list[str]:
    """The model families (the registry's); with ``needs``, those whose entry has that hook
    (``train``, ``verify``) and the encoder-decoder, whose own command path is the default."""
    from .families import registry

    return [name for name in registry.names() if needs is None or name == registry.DEFAULT
            or getattr(registry.get(name), needs) is not None]


def _config_options(func):
    """One flag per size the families declare (``--d-model``, ``--final-norm/--no-final-norm``,
    …: registry.size_options), then each family's own switches, a shorthand (``--layers``)
    and ``--preset`` first."""
    from .families.registry import preset_names, size_options

    sizes = size_options()
    for option in reversed([o for o in sizes if not o.sets]):
        func = _flag(option)(func)
    func = _family_options(func, {o.name for o in sizes})
    for option in reversed([o for o in sizes if o.sets]):
        func = _flag(option)(func)
    return click.option("--preset", default=None, show_default="tutorial",
                        type=click.Choice(preset_names()),
                        help="starting sizes; every field can be overridden (a family "
                             "refuses a preset it does not have)")(func)


def _family_options(func, sizes: set[str]):
    """One flag per switch a family declares (families/<name>/options.py); a family that does
    not take it refuses it by name (registry.refuse_foreign)."""
    from .families.registry import declared

    for option, takers in reversed(list(declared().values())):
        if option.name in sizes:
            continue
        only = "" if len(takers) > 1 else f" (--family {takers[0]})"
        func = _flag(option, only)(func)
    return func


def _flag(option, more: str = ""):
    """The click option a declaration makes (families/registry.Option): a bool as
    ``--name/--no-name``; the range stated in --help, refused by the family's config (naming
    the field), or here when the declaration says ``checked``."""
    flag = option.flag
    if option.kind is bool and not option.choices:
        flag, kind = f"{flag}/--no-{flag[2:]}", None
    elif option.choices:
        kind = click.Choice(option.choices)
    elif option.kind is int:
        kind = Whole(option.lo, option.hi, check=option.checked)
    elif option.kind is float:
        kind = Finite(option.lo, option.hi, lo_open=option.lo_open, hi_open=option.hi_open,
                      check=option.checked)
    else:
        kind = option.kind
    return click.option(flag, option.name, type=kind, default=None, help=option.help + more)


def config_from_options(options: dict):
    """Pop the config options out of a command's keyword arguments and build the default
    family's config (its ``configure``: the preset, tutorial unless named, with the sizes
    over it)."""
    from .families import registry

    overrides = {n: options.pop(n) for n in config_fields() if n in options}
    family = registry.get(registry.DEFAULT)
    return family.configure({"preset": options.pop("preset") or "tutorial", **overrides})


def model_options(func):
    """Config options plus the sentences and weights every model command takes."""
    from .families.registry import notes_for

    func = click.option("--weights", type=click.Path(),
                        help="load weights from a .safetensors file (as --save-weights "
                             f"wrote){notes_for('weights')}")(func)
    func = click.option("--corpus", type=click.Path(dir_okay=False),
                        help="UTF-8 file, one sentence per line (default: the tutorial's dataset)")(func)
    func = click.option("--tgt", default=None, help="target sentence (default: the tutorial's)")(func)
    func = click.option("--src", default=None, help="source sentence (default: the tutorial's)")(func)
    return _config_options(func)


def user_errors(func):
    """A HandformerError becomes 'error: …' on stderr and exit status 2, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except HandformerError as err:
            click.echo(f"error: {one_line(str(err))}", err=True)
            sys.exit(2)
        except MemoryError:  # what the limits (limits.py) did not foresee, still one line
            click.echo("error: out of memory; choose smaller sizes (docs/security.md lists "
                       "the limits)", err=True)
            sys.exit(2)

    return wrapper


INTERRUPTED_STATUS = 130  # 128 + SIGINT, what a shell reports for a Ctrl-C


class _Commands(click.Group):
    """The command group; it also turns Ctrl-C and a failing standard output into one line
    on stderr and an exit status (click alone says "Aborted!" and exits 1, or shows a
    traceback for a full stdout), while parsing (--help) and while running a command."""

    def main(self, args=None, *more, **kwargs):
        """Run the command line, then freeze what it made (``gc.freeze``) when it is the
        program's own (``args`` not given): the process exits next, and the collections at exit
        then skip the objects of every import and of the run, which exit frees anyway (4% of
        a walk's instructions)."""
        try:
            return super().main(args, *more, **kwargs)
        finally:
            if args is None:
                gc.freeze()

    def list_commands(self, ctx):
        from .commands import command_modules

        return sorted({*self.commands, *command_modules()})

    def get_command(self, ctx, name):
        """The command, its module imported the first time one of its commands is asked for."""
        from .commands import command_modules

        modules = command_modules()
        if name not in self.commands and name in modules:
            import importlib

            module = importlib.import_module(f".{modules[name]}", __package__)
            for command in module.COMMANDS:
                self.add_command(command)
        return self.commands.get(name)

    def make_context(self, *args, **kwargs):
        with _streams_and_signals():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx):
        with _streams_and_signals():
            result = user_errors(super().invoke)(ctx)  # cli_checks' errors are one line too
            if sys.stdout is not None:
                sys.stdout.flush()  # now, not at exit, where a failure is a traceback
            return result


@contextlib.contextmanager
def _streams_and_signals():
    from .files.stdout import ClosedStdout, stdout_failed

    sys.stdout = ClosedStdout() if sys.stdout is None else sys.stdout
    try:
        try:
            yield
        except OSError as err:
            if err.filename is not None:  # a file no reader or writer wrapped
                raise HandformerError(f"cannot use {err.filename!r}: {err.strerror}") from None
            stdout_failed(err)
    except KeyboardInterrupt:
        click.echo("\ninterrupted", err=True)
        sys.exit(INTERRUPTED_STATUS)
    except HandformerError as err:  # from stdout_failed, raised after the command's own
        click.echo(f"error: {one_line(str(err))}", err=True)
        sys.exit(2)


@click.group(cls=_Commands,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="handformer")
def main():
    """handformer: a Transformer computed by hand, every number of every step."""


def write_output(data: str | bytes, output: str | None, done: str | None = None,
                 inputs: dict | None = None, styled: bool = False,
                 pager: bool = False) -> None:
    """Text to the terminal, or any output (text or bytes) to a file, atomically; ``done``
    is what stderr then says (default "wrote FILE"); ``inputs`` (flag → path) are the files
    the command read, which the output must not replace. Text is shown safe (textsafe): words
    from files reach the terminal or a text file, never their escapes. ``styled``: the
    terminal renderer's text, its words already shown safe and its escapes its own styles.
    ``pager``: text taller than the terminal may go through a pager (files/pager.py)."""
    if isinstance(data, str) and not styled:
        data = shown(data)
    if output is None:
        if isinstance(data, bytes):
            raise HandformerError("this output is a binary file: give -o FILE")
        from .files import pager as paging
        from .files.stdout import write_stream

        if not (pager and paging.wanted(sys.stdout, data)
                and paging.page(data, sys.stdout.encoding or "utf-8")):
            write_stream(sys.stdout, data)
        return
    from .files.io import atomic_write

    atomic_write(output, data, inputs)
    click.echo(one_line(done or f"wrote {output}"), err=True)


def check_outputs(outputs: dict, inputs: dict) -> None:
    """Refuse, before any work, outputs (flag → path) that cannot be written, that are one of
    the ``inputs`` (flag → path; a folder stands for the files in it) or that name one file
    twice."""
    given = {flag: path for flag, path in outputs.items() if path is not None}
    if not given:  # to the terminal: nothing to check (and pathlib is not needed)
        return
    from pathlib import Path

    from .files.io import OutputError, check_output

    files = {}
    for flag, path in inputs.items():
        if path is not None and Path(path).is_dir():
            files |= {f"{flag}'s {p.name}": p for p in Path(path).iterdir()}
        else:
            files[flag] = path
    for flag, path in given.items():
        check_output(path, files)
        twin = next((f for f, p in given.items() if f != flag and same_file(p, path)), None)
        if twin:
            raise OutputError(f"{flag} and {twin} both name {path!r}; give two files")


def same_file(a, b) -> bool:
    """Whether two paths name one file (the same spelling, a link, a hard link)."""
    import os

    return os.path.abspath(a) == os.path.abspath(b) or (
        os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b))


def show_sections(sections: list, precision: int, width: int | None) -> None:
    """Narrated sections on the terminal (styled when it is one)."""
    from .render.terminal.ansi import Terminal
    from .render.terminal.screen import render

    write_output(render(sections, precision, width, Terminal.detect(sys.stdout, width)), None,
                 styled=True)
