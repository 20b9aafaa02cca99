"""The renderer contract: a format name → a Renderer that turns a tape into text or bytes.

A renderer never writes: ``render(tape, options)`` returns what the one writer (``io`` through
``cli.write_output``) puts on the terminal or, atomically, into a file. ``walk --format`` and
``render --format`` offer exactly the formats registered here, so a new format (xlsx, a web
view) is one module with a ``render(tape, options)`` and one ``register`` call. Each entry
imports its module only when it draws, so `walk`'s start-up never pays for jinja2 or matplotlib.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import HandformerError

if TYPE_CHECKING:
    from ..engine.tape import Tape
    from .terminal.ansi import Terminal


@dataclass(frozen=True)
class Options:
    """What the user asked of the drawing (the same for every format; each uses what it needs)."""

    lang: str = "en"
    precision: int = 3
    steps: str | None = None  # only these tutorial steps, e.g. "7-9"
    width: int | None = None  # text width in columns
    step: str | None = None  # a figure's one step (tape name)
    terminal: Terminal | None = None  # drawing for this terminal (styles), not for a file
    level: str = "steps"  # "overview", "steps" or "all": how much of the walkthrough is told


@dataclass(frozen=True)
class Renderer:
    """One output format: its name, how it draws, and whether its output is bytes."""

    name: str
    render: Callable[[Tape, Options], str | bytes]
    binary: bool = False  # bytes (an image): written to a file, never to the terminal
    help: str = ""


_RENDERERS: dict[str, Renderer] = {}


def register(renderer: Renderer) -> None:
    """Offer a format everywhere a format is chosen (a later entry of the same name wins)."""
    _RENDERERS[renderer.name] = renderer


def names() -> list[str]:
    """The registered formats, in the order registered (terminal first)."""
    return list(_RENDERERS)


def get(name: str) -> Renderer:
    try:
        return _RENDERERS[name]
    except KeyError:
        raise HandformerError(f"no output format {name!r}; formats are "
                              f"{', '.join(_RENDERERS)}") from None


def render(tape: Tape, fmt: str, options: Options | None = None) -> str | bytes:
    """The tape drawn in format ``fmt``: text or bytes, nothing written."""
    return get(fmt).render(tape, options or Options())


def _sections(tape: Tape, options: Options) -> list:
    from ..narrate import build, select

    return select(build(tape, options.lang, options.level), options.steps)


def _terminal(tape: Tape, o: Options) -> str:
    from .terminal.screen import render as draw

    return draw(_sections(tape, o), o.precision, o.width, o.terminal)


def _json(tape: Tape, o: Options) -> str:
    from ..files.tape_json import dumps

    return dumps(tape)


def _markdown(tape: Tape, o: Options) -> str:
    from .markdown import render as draw

    return draw(_sections(tape, o), precision=o.precision, lang=o.lang)


def _html(tape: Tape, o: Options) -> str:
    from .html.page import render as draw

    return draw(tape, precision=o.precision, steps=o.steps, lang=o.lang, level=o.level)


def _figure(fmt: str) -> Callable[[Tape, Options], bytes]:
    def draw(tape: Tape, o: Options) -> bytes:
        from .figure import render_figure

        return render_figure(tape, o.step, fmt=fmt, lang=o.lang, precision=o.precision)

    return draw


def _xlsx(tape: Tape, o: Options) -> bytes:
    from .xlsx.workbook import render_xlsx

    return render_xlsx(tape, lang=o.lang, precision=o.precision)


for _entry in (Renderer("terminal", _terminal, help="the walkthrough as text"),
               Renderer("json", _json, help="the tape itself (handformer.tape/1)"),
               Renderer("markdown", _markdown, help="GitHub Markdown with LaTeX"),
               Renderer("html", _html, help="one self-contained page, English and Chinese"),
               Renderer("svg", _figure("svg"), binary=True, help="one step's figure (--step)"),
               Renderer("png", _figure("png"), binary=True, help="one step's figure (--step)"),
               Renderer("xlsx", _xlsx, binary=True, help="the forward pass as live formulas")):
    register(_entry)
