"""What the families declare in their options.py, read without importing them: the sizes and
switches the command line makes flags of (and the web app form fields), the presets' names,
the clauses they add to shared prose, their own commands (families/registry.py re-exports it
all: shared code reaches families through the registry alone).

Each built-in family's ``options.py`` is a light module loaded from its file alone (no numpy),
as the command line reads the declarations at every start.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from ..errors import HandformerError

BUILT_IN = ("transformer", "bert", "gpt")  # folders of this package, imported on first lookup


class Option:
    """A switch or size a family declares (``families/<name>/options.py``'s ``OPTIONS`` and
    ``SIZES``): the command line's flag ``--name`` with its --help line, and the web app's form
    field or config check, are made from it. ``choices``: the values it takes (a word); else
    ``kind``: bool (``--name/--no-name``), str (a word its config checks), or int or float
    within [lo, hi] (None: unbounded; ``lo_open``/``hi_open``: that bound itself excluded, a
    float's lower one unless told), which the family's config checks (naming the numbers that
    clash), or the command line itself when ``checked``. ``sets``: the config's fields a
    shorthand sets at once (``--layers``: both stacks'); the command line lists it first."""

    __slots__ = ("name", "help", "choices", "kind", "lo", "hi", "lo_open", "hi_open",
                 "checked", "sets")

    def __init__(self, name: str, help: str, choices: tuple[str, ...] = (),
                 kind: type = str, lo: float | None = None, hi: float | None = None,
                 lo_open: bool | None = None, hi_open: bool = False, checked: bool = False,
                 sets: tuple[str, ...] = ()):
        self.name, self.help, self.choices = name, help, tuple(choices)
        self.kind, self.lo, self.hi = kind, lo, hi
        self.lo_open = kind is float if lo_open is None else lo_open
        self.hi_open, self.checked, self.sets = hi_open, checked, tuple(sets)

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")


EXTRA_OPTIONS: dict[str, tuple[Option, ...]] = {}  # families registered at run time


def declare_options(family: str, options: tuple[Option, ...]) -> None:
    """Declare a family's switches (a family registered from outside this package)."""
    EXTRA_OPTIONS[family] = tuple(options)


def declared() -> dict[str, tuple[Option, tuple[str, ...]]]:
    """Every switch a family declares → (its declaration, the families that take it). Reads
    each built-in family's ``options.py`` (a light module: no numpy), not the family itself."""
    found: dict[str, tuple[Option, tuple[str, ...]]] = {}
    for name, options in {**_built_in_options(), **EXTRA_OPTIONS}.items():
        for option in options:
            first, takers = found.get(option.name, (option, ()))
            found[option.name] = (first, (*takers, name))
    return found


def _built_in_options() -> dict[str, tuple[Option, ...]]:
    return {name: tuple(module.OPTIONS) for name, module in option_modules().items()}


def size_options() -> tuple[Option, ...]:
    """The model flags every model command takes: the sizes and switches of a config the
    families declare (``SIZES`` of their options.py, each name once, in order, the first
    declaration kept). The default family's config has these fields; another family built from
    a preset reads them under the same names or refuses them by name (its ``configure``)."""
    found: dict[str, Option] = {}
    for module in option_modules().values():
        for option in getattr(module, "SIZES", ()):
            found.setdefault(option.name, option)
    return tuple(found.values())


def notes_for(flag: str, join: str = "") -> str:
    """What the families add to a shared flag's --help line or message (``NOTES`` of their
    options.py: a flag's name, or a message's key → a clause naming the family, with its own
    leading punctuation), in order, joined by ``join``: the prose that names a family is the
    family's."""
    notes = [module.NOTES[flag] for module in option_modules().values()
             if flag in getattr(module, "NOTES", {})]
    return join.join(notes)


def presets_of(family: str) -> tuple[str, ...]:
    """The presets a built-in family's options.py names (``PRESETS``; none for another)."""
    return tuple(getattr(option_modules().get(family), "PRESETS", ()))


def preset_names() -> list[str]:
    """The presets the families' options.py name (``PRESETS``), in order, each once."""
    names: list[str] = []
    for module in option_modules().values():
        names += [n for n in getattr(module, "PRESETS", ()) if n not in names]
    return names


def command_modules() -> dict[str, str]:
    """Each built-in family's own commands, command → its module as a name under this package
    (``families/<name>/options.py``'s ``COMMANDS``: command → module of the family's folder),
    so the command line finds them without importing any family."""
    out = {}
    for name, module in option_modules().items():
        out |= {command: f"families.{name}.{where}"
                for command, where in getattr(module, "COMMANDS", {}).items()}
    return out


def option_modules() -> dict:
    """Each built-in family's ``options.py``, by family, loaded from its file alone: importing
    it as a submodule would run the family's ``__init__`` first (its model, numpy), and the
    command line reads the declarations at every start."""
    out = {}
    for name in BUILT_IN:
        module = _options_module(name)
        if module is not None:
            out[name] = module
    return out


def _options_module(family: str):
    import sys

    name = f"{__package__}.{family}.options"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).parent / family / "options.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # the family's own `from .options import …` finds this one
    spec.loader.exec_module(module)
    return module


def refuse_foreign(family: str, options: dict) -> dict:
    """The options without the switches other families declare; one of them given (not None,
    not False) is refused in one line naming this family and the ones that take it."""
    kept = dict(options)
    for name, (option, takers) in declared().items():
        if family in takers or name not in kept:
            continue
        value = kept.pop(name)
        if value is not None and value is not False:
            raise HandformerError(f"the {family} family does not take {option.flag} (the "
                                  f"{', '.join(takers)} family does: add --family "
                                  f"{takers[0]})")
    return kept
