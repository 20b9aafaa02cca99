"""The model families by name: each declares its config, parameters, forward, story and loader.

``tape.meta["family"]`` names the family a tape was computed by; narration and the renderers
find what they need here and know no family by name. A new family is one module that calls
``register`` (docs/tape.md, "Model families").
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from ..config import HandformerError

BUILT_IN = ("transformer", "bert")  # modules of this package, imported on first lookup


@dataclass(frozen=True)
class Family:
    """One model family, all in one place.

    ``config``: the sizes' dataclass; ``param_shapes(cfg, …)``: parameter name → shape;
    ``forward(tape, cfg, …)``: every step onto a tape; ``story(tape)``: the narrator functions,
    in order, each called with a ``narrate.context.Ctx`` (its sentences are keys of the
    handformer.i18n tables); ``load``: what builds a ready model (parameters and vocabulary).
    """

    name: str
    config: type
    param_shapes: Callable
    forward: Callable
    story: Callable
    load: Callable


FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    FAMILIES[family.name] = family
    return family


def get(name: str) -> Family:
    if name not in FAMILIES and name in BUILT_IN:
        importlib.import_module(f"{__package__}.{name}")
    if name not in FAMILIES:
        known = sorted(set(FAMILIES) | set(BUILT_IN))
        raise HandformerError(f"unknown model family {name!r}; known: {', '.join(known)}")
    return FAMILIES[name]


def family_of(tape) -> Family:
    """The family that computed ``tape``: meta["family"]; a tape saved before families were
    named says meta["kind"] == "bert" or nothing (the encoder-decoder)."""
    name = tape.meta.get("family") or tape.meta.get("kind") or "transformer"
    return get(name)


def load_all() -> None:
    """Import every built-in family (and so register its ops, whose formulas a loaded tape
    needs)."""
    for name in BUILT_IN:
        get(name)
