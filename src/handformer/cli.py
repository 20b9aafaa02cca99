"""The command line: parse, call the library, render. Heavy imports stay inside the commands."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import sys
import types
import typing

import click

from .cli_checks import SEED, Finite, Whole
from .config import PRESETS, Config
from .errors import HandformerError
from .textsafe import one_line, shown

_CONFIG_HELP = {
    "d_model": "embedding width d_model", "heads": "attention heads (encoder; decoder too unless --decoder-heads)",
    "decoder_heads": "attention heads in the decoder", "d_k": "query/key width per head",
    "d_v": "value width per head", "d_ff": "feed-forward hidden width",
    "encoder_layers": "encoder layers", "decoder_layers": "decoder layers",
    "ffn": "feed-forward: 'single' (one linear + ReLU, the tutorial), 'paper' (two linears) or "
           "'swiglu' ((SiLU(X W_gate) ⊙ X W_up) W_down, Llama; --family gpt)",
    "attn_bias": "biases in the attention projections", "scale_embeddings": "multiply embeddings by √d_model",
    "final_norm": "one more LayerNorm after each stack (as torch.nn.Transformer)",
    "norm": "'post': LN(x + Sublayer(x)), the paper; 'pre': x + Sublayer(LN(x)), GPT-2",
    "tie_embeddings": "one table for the embeddings and the output layer (W_out = Eᵀ, §3.4)",
    "init": "initial weights: 'uniform' [0, 1) or 'xavier'", "ln_eps": "layer-norm ε",
    "max_len": "longest sentence the model takes", "dropout": "dropout rate (training only)",
    "label_smoothing": "label smoothing ε of the loss", "seed": "random seed of the initial weights",
}

CONFIG_FIELDS = (*_CONFIG_HELP, "layers")  # what --preset's overrides may name


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
    """One CLI option per Config field (``--d-model``, ``--final-norm/--no-final-norm``, ...)."""
    hints = typing.get_type_hints(Config)
    for f in reversed([f for f in dataclasses.fields(Config) if f.name in _CONFIG_HELP]):
        flag = "--" + f.name.replace("_", "-")
        kind = _base_type(hints[f.name])
        if kind is bool:
            flag = f"{flag}/--no-{flag[2:]}"
        option = click.option(flag, f.name, type=None if kind is bool else _ranged(f.name, kind),
                              default=None, help=_CONFIG_HELP[f.name])
        func = option(func)
    func = _family_options(func)
    func = click.option("--layers", type=Whole(1, None, check=False), default=None,
                        help="encoder and decoder layers (N)")(func)
    from .families.registry import preset_names

    presets = dict.fromkeys([*PRESETS, *preset_names()])  # each name once, in order
    return click.option("--preset", default=None, show_default="tutorial",
                        type=click.Choice(list(presets)),
                        help="starting sizes; every field can be overridden (a family "
                             "refuses a preset it does not have)")(func)


def _family_options(func):
    """One flag per switch a family declares (families/<name>/options.py); a family that does
    not take it refuses it by name (registry.refuse_foreign)."""
    from .families.registry import declared

    for option, takers in reversed(list(declared().values())):
        if option.name in _CONFIG_HELP:
            continue
        if option.choices:
            kind = click.Choice(option.choices)
        elif option.kind is int:
            kind = Whole(option.lo, option.hi, check=False)
        else:
            kind = Finite(option.lo, option.hi, lo_open=True, check=False)
        only = "" if len(takers) > 1 else f" (--family {takers[0]})"
        func = click.option(option.flag, option.name, type=kind, default=None,
                            help=option.help + only)(func)
    return func


def _ranged(name: str, kind):
    """A Config field's option type, its range stated in --help; the Config refuses a value
    outside it (naming the field), except a seed, which every command bounds alike."""
    if name == "seed":
        return SEED
    if name in ("dropout", "label_smoothing"):
        return Finite(0.0, 1.0, hi_open=True, check=False)
    if name == "ln_eps":
        return Finite(0.0, None, lo_open=True, check=False)
    return Whole(1, None, check=False) if kind is int else kind


def _base_type(hint):
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return next(a for a in typing.get_args(hint) if a is not type(None))
    return hint


def config_from_options(options: dict) -> Config:
    """Pop the config options out of a command's keyword arguments and build the Config."""
    from .config import preset

    overrides = {n: options.pop(n) for n in CONFIG_FIELDS if n in options}
    return preset(options.pop("preset") or "tutorial", **overrides)


def model_options(func):
    """Config options plus the sentences and weights every model command takes."""
    func = click.option("--weights", type=click.Path(),
                        help="load weights from a .safetensors file (as --save-weights wrote), "
                             "or with --family gpt a Hugging Face Llama folder")(func)
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
