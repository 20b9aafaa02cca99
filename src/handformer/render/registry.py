"""The renderer contract: a format name → a Renderer that turns a tape into text or bytes.

Every format is a module with one function of one signature, ``render(tape, options)``,
returning text or bytes; a renderer never writes: the one writer (``files.io`` through
``cli.write_output``) puts what it returns on the terminal or, atomically, into a file.
``walk --format`` and ``render --format`` offer exactly the formats registered here, so a new
format is one module with a ``render(tape, options)`` and one ``register`` call. Each entry
imports its module only when it draws, so `walk`'s start-up never pays for jinja2 or matplotlib.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..errors import HandformerError
from ..records import Frozen

if TYPE_CHECKING:
    from ..engine.tape import Tape
    from .terminal.ansi import Terminal


class Options(Frozen):
    """What the user asked of the drawing (the same for every format; each uses what it needs):
    the language, the decimals, only these tutorial steps (``steps``, e.g. "7-9"), the text
    width in columns, a figure's one step (``step``, a tape name), the terminal drawn for
    (styles; None: for a file), the ``level`` ("overview", "steps" or "all": how much of the
    walkthrough is told) and the format drawn (set by the registry: a module may draw
    several)."""

    FIELDS = ("lang", "precision", "steps", "width", "step", "terminal", "level", "format")

    def __init__(self, lang: str = "en", precision: int = 3, steps: str | None = None,
                 width: int | None = None, step: str | None = None,
                 terminal: Terminal | None = None, level: str = "steps", format: str = ""):
        self._set(lang=lang, precision=precision, steps=steps, width=width, step=step,
                  terminal=terminal, level=level, format=format)


class Renderer:
    """One output format: its name, the module that draws it, and whether its output is bytes
    (``binary``: an image, a workbook, written to a file, never to the terminal).

    ``module`` (a dotted module path: "handformer.render.html", or a module of your own)
    exports ``render(tape, options)``, the one signature every format shares; it is imported
    only when the format draws. (a plain class: a dataclass compiles its methods from source text at every start-up.)"""

    __slots__ = ("name", "module", "binary", "help")

    def __init__(self, name: str, module: str, binary: bool = False, help: str = ""):
        self.name, self.module, self.binary, self.help = name, module, binary, help

    def render(self, tape: Tape, options: Options) -> str | bytes:
        module = importlib.import_module(self.module)
        return module.render(tape, options.replace(format=self.name))


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


_BUILT_IN = (
    ("terminal", "handformer.render.terminal", False, "the walkthrough as text"),
    ("json", "handformer.files.tape_json", False, "the tape itself (handformer.tape/1)"),
    ("markdown", "handformer.render.markdown", False, "GitHub Markdown with LaTeX"),
    ("html", "handformer.render.html", False, "one self-contained page, English and Chinese"),
    ("svg", "handformer.render.figure", True, "one step's figure (--step)"),
    ("png", "handformer.render.figure", True, "one step's figure (--step)"),
    ("xlsx", "handformer.render.xlsx", True, "the forward pass as live formulas"),
)
for _name, _module, _binary, _help in _BUILT_IN:
    register(Renderer(_name, _module, _binary, _help))
