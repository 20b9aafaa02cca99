"""The command line: parse, call the library, render. Heavy imports stay inside the commands."""

from __future__ import annotations

import dataclasses
import functools
import sys
import types
import typing

import click

from .config import Config, HandformerError
from .textsafe import shown

_CONFIG_HELP = {
    "d_model": "embedding width d_model", "heads": "attention heads (encoder; decoder too unless --decoder-heads)",
    "decoder_heads": "attention heads in the decoder", "d_k": "query/key width per head",
    "d_v": "value width per head", "d_ff": "feed-forward hidden width",
    "encoder_layers": "encoder layers", "decoder_layers": "decoder layers",
    "ffn": "feed-forward: 'single' (one linear + ReLU, the tutorial) or 'paper' (two linears)",
    "attn_bias": "biases in the attention projections", "scale_embeddings": "multiply embeddings by √d_model",
    "final_norm": "one more LayerNorm after each stack (as torch.nn.Transformer)",
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


def _config_options(func):
    """One CLI option per Config field (``--d-model``, ``--final-norm/--no-final-norm``, ...)."""
    hints = typing.get_type_hints(Config)
    for f in reversed([f for f in dataclasses.fields(Config) if f.name in _CONFIG_HELP]):
        flag = "--" + f.name.replace("_", "-")
        kind = _base_type(hints[f.name])
        if kind is bool:
            flag = f"{flag}/--no-{flag[2:]}"
        option = click.option(flag, f.name, type=None if kind is bool else kind, default=None,
                              help=_CONFIG_HELP[f.name])
        func = option(func)
    func = click.option("--layers", type=int, default=None,
                        help="encoder and decoder layers (N)")(func)
    return click.option("--preset", default="tutorial", show_default=True,
                        type=click.Choice(["tutorial", "small", "paper"]),
                        help="starting sizes; every field can be overridden")(func)


def _base_type(hint):
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return next(a for a in typing.get_args(hint) if a is not type(None))
    return hint


def config_from_options(options: dict) -> Config:
    """Pop the config options out of a command's keyword arguments and build the Config."""
    from .config import preset

    overrides = {n: options.pop(n) for n in CONFIG_FIELDS if n in options}
    return preset(options.pop("preset"), **overrides)


def model_options(func):
    """Config options plus the sentences and weights every model command takes."""
    func = click.option("--weights", type=click.Path(dir_okay=False),
                        help="load weights from a .safetensors file (as --save-weights wrote)")(func)
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
            click.echo(f"error: {shown(str(err))}", err=True)
            sys.exit(2)
        except MemoryError:  # what the limits (limits.py) did not foresee, still one line
            click.echo("error: out of memory; choose smaller sizes (docs/security.md lists "
                       "the limits)", err=True)
            sys.exit(2)

    return wrapper


class _Group(click.Group):
    """Errors found while a command's options are read (cli_checks) are one line too."""

    def invoke(self, ctx):
        return user_errors(super().invoke)(ctx)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="handformer")
def main():
    """handformer: a Transformer computed by hand, every number of every step."""


def write_output(data: str | bytes, output: str | None, done: str | None = None,
                 styled: bool = False) -> None:
    """Text to the terminal, or any output (text or bytes) to a file, atomically; ``done``
    is what stderr then says (default "wrote FILE"). Text is shown safe (textsafe): words from
    files reach the terminal or a text file, never their escapes. ``styled``: the terminal
    renderer's text, its words already shown safe and its escapes its own styles."""
    if isinstance(data, str) and not styled:
        data = shown(data)
    if output is None:
        if isinstance(data, bytes):
            raise HandformerError("this output is a binary file: give -o FILE")
        from .io import write_stream

        write_stream(sys.stdout, data)
        return
    from .io import atomic_write

    atomic_write(output, data)
    click.echo(done or f"wrote {output}", err=True)


def show_sections(sections: list, precision: int, width: int | None) -> None:
    """Narrated sections on the terminal (styled when it is one)."""
    from .render.ansi import Terminal
    from .render.terminal import render

    write_output(render(sections, precision, width, Terminal.detect(sys.stdout, width)), None,
                 styled=True)


def _register_commands() -> None:
    from .commands import COMMAND_MODULES

    for module in COMMAND_MODULES:
        for command in getattr(module, "COMMANDS", []):
            main.add_command(command)


_register_commands()
