"""The model families by name: each declares everything the pipeline needs to run it.

``tape.meta["family"]`` names the family a tape was computed by; the pipeline, narration and
the renderers find what they need here and know no family by name. A new family is one folder
(``families/<name>/``) whose ``__init__`` calls ``register`` (docs/tape.md, "Model families");
what its ``options.py`` declares (sizes, switches, presets, notes, commands) is read by
declarations.py, whose functions this module re-exports.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from ..errors import HandformerError, PretrainedError
from .declarations import (  # noqa: F401  (the registry's API: what the families declare)
    BUILT_IN,
    EXTRA_OPTIONS,
    Option,
    command_modules,
    declare_options,
    declared,
    notes_for,
    option_modules,
    preset_names,
    presets_of,
    refuse_foreign,
    size_options,
)

DEFAULT = "transformer"  # the family a run walks when it names none (the tutorial's model)


def _no_notes(model, tape) -> list[str]:
    return []


class Family:
    """One model family, all in one place.

    ``config``: the sizes' dataclass; ``param_shapes(cfg, …)``: parameter name → shape;
    ``forward(tape, cfg, …)``: every step onto a tape; ``story(tape)``: the narrator functions,
    in order, each called with a ``narrate.context.Ctx`` (its sentences are keys of the
    handformer.i18n tables).

    What the pipeline runs: ``prepare(options)`` builds the config from the options, checks it
    and returns a ready model (config, vocabulary, parameters); ``walk(model, options)`` puts
    one input's every step on a tape (the loss and the errata pass included);
    ``backward(tape, model, options)`` adds every gradient and one update (None: the family has
    no backward pass by hand); ``notes(model, tape)``: lines the user should read (warnings);
    ``decode``: what translates or generates, if the family does, and ``explain(result, vocab,
    lang)`` the sections that tell it. ``pretrained``: ``prepare`` reads
    ``options["pretrained"]``, a model folder or a known model's name.
    ``pretrained_names``: the known models' names (lower case) the family loads with
    ``--pretrained NAME`` (a family may load them without loading folders: ``pretrained``
    False keeps it a family the web app builds). ``pretrained_app``: the bindings the web app
    walks those models with (an object, a module): ``about(name)`` → {"missing": the one line
    naming the pip command that adds its file, or None; "text": its example prompt; "layers"},
    ``prompt_tokens(model, text)`` (the prompt's length in the model's tokens) and
    ``view(tape, shown)`` (a walk of every block as one that shows the blocks ``shown`` in full
    and elides the others: a copy). ``errata(tape)``: the
    records of the family's errata pass on a tape (where a tutorial it follows went wrong).
    ``configure(options)``: the config alone from a preset name and size fields (what a web
    request checks before any parameter is made), refusing what the family does not take.
    ``verify(options)``: `handformer verify --family NAME`: the family's model against torch,
    as (title, rows of (name, shape, largest |ours − torch|)). ``verify_report(options, tol)``:
    instead, a family whose check prints its own table (the encoder-decoder's: each row for one
    pair and inside a padded batch, ``options["reference"]`` choosing among its torch models)
    prints it and returns whether every row is within ``tol``.
    ``beside_trained``: ``walk`` reads ``options["beside_trained"]`` (a copy of the random
    weights trained on the spot, shown beside them; BERT: its pretrained weights beside random
    initial ones).
    ``save_weights(path, model)``: `walk --save-weights FILE`, the model's weights as
    safetensors under its ecosystem's names (``prepare`` reads ``options["weights"]`` back).
    ``export_names(tensors, model)``: the model's parameters, or arrays shaped like them (their
    gradients: `walk --backward --save-grads FILE`), under the names its ecosystem's torch
    model gives them, transposed and packed as that model keeps them.
    ``generates``: ``walk`` reads ``options["generate"]`` (N tokens written after the text, one
    at a time, each step on the tape) and the sampling switches ``temperature``, ``top_k``,
    ``top_p``; other families refuse them by name (pipeline.py).
    ``next_steps``: the terminal walk's closing commands, ``{"walk": …, "backward": …}``: for
    a walk without and with a backward pass, each a tuple of (what it shows, the command) i18n
    keys; ``next_token_loss``: its loss is a next-token cross-entropy over the vocabulary (the
    recap compares it with log V, a uniform guess).
    ``follows_tutorial``: its story keeps the seed tutorial's stages, so a section can name
    the tutorial's own step it shows (narrate.context.TUTORIAL_STEPS).
    ``train(options, given)``: what `handformer train --family NAME` runs with the command's
    options (``given``: each option the user gave → its flag); None: the shared training
    loop on sentence pairs (train/loop.py) if the family has ``pairs``, else refused by name.
    ``pairs``: the bindings of the services that learn from sentence pairs (train/loop.py's
    epochs, train/bleu.py's scores, `train --engine torch`, `evaluate`): an object (a module)
    with ``first_params(cfg, vocab, options)`` (a fresh run's weights, refusing a config the
    vocabulary cannot take), ``batch_loss(params, cfg, batch, rng, backward)`` →
    train.result.Result, ``translate_all(params, cfg, vocab, sentences)`` (greedy, batched)
    and ``attach_torch(run, device_and_backend)``; its presence also says the family's
    vocabulary may be one per side (``param_shapes`` then takes the (source, target) sizes).
    None: the family does not learn from pairs (``for_pairs`` finds the one that does).
    ``exercises``: the family's own question kinds (exercises/family_kinds.Kind: questions on
    the operations only its folder registers), which `handformer exercises`, the web quiz and
    the page's check ask beside the shared ones.
    ``presets``: each preset's fields by name (what the app's form shows as the sizes a preset
    sets); its options.py names them for the command line (``presets_of``).

    A plain class, not a dataclass: a dataclass compiles its methods from source text at every
    start-up.
    """

    __slots__ = ("name", "config", "param_shapes", "forward", "story", "prepare", "walk",
                 "backward", "notes", "decode", "explain", "errata", "pretrained", "train",
                 "configure", "verify", "beside_trained", "follows_tutorial", "save_weights",
                 "export_names", "generates", "next_steps", "next_token_loss", "pairs",
                 "verify_report", "pretrained_names", "presets", "exercises", "pretrained_app")

    def __init__(self, name: str, config: type, param_shapes: Callable, forward: Callable,
                 story: Callable, prepare: Callable, walk: Callable,
                 backward: Callable | None = None, notes: Callable = _no_notes,
                 decode: Callable | None = None, explain: Callable | None = None,
                 errata: Callable | None = None, pretrained: bool = False,
                 train: Callable | None = None, configure: Callable | None = None,
                 verify: Callable | None = None, beside_trained: bool = False,
                 follows_tutorial: bool = False, save_weights: Callable | None = None,
                 export_names: Callable | None = None, generates: bool = False,
                 next_steps: dict | None = None, next_token_loss: bool = False,
                 pairs: object | None = None, verify_report: Callable | None = None,
                 pretrained_names: tuple[str, ...] = (), presets: dict | None = None,
                 exercises: tuple = (), pretrained_app: object | None = None):
        self.name, self.config, self.param_shapes = name, config, param_shapes
        self.forward, self.story, self.prepare, self.walk = forward, story, prepare, walk
        self.backward, self.notes, self.decode = backward, notes, decode
        self.explain, self.errata, self.pretrained, self.train = explain, errata, pretrained, train
        self.configure, self.verify = configure, verify
        self.beside_trained, self.follows_tutorial = beside_trained, follows_tutorial
        self.save_weights, self.export_names = save_weights, export_names
        self.generates, self.next_token_loss = generates, next_token_loss
        self.next_steps = next_steps or {}
        self.pairs, self.verify_report = pairs, verify_report
        self.pretrained_names = tuple(pretrained_names)
        self.presets, self.exercises = dict(presets or {}), tuple(exercises)
        self.pretrained_app = pretrained_app

FAMILIES: dict[str, Family] = {}


def register(family: Family) -> Family:
    FAMILIES[family.name] = family
    return family


def get(name: str) -> Family:
    if name not in FAMILIES and name in BUILT_IN:
        importlib.import_module(f"{__package__}.{name}")
    if name not in FAMILIES:
        raise HandformerError(f"unknown model family {name!r}; known: {', '.join(names())}")
    return FAMILIES[name]


def names() -> list[str]:
    """Every family: the built-in ones and any registered since."""
    return sorted(set(FAMILIES) | set(BUILT_IN))


def family_of(tape) -> Family:
    """The family that computed ``tape``: meta["family"]; a tape saved before families were
    named says meta["kind"] == "bert" or nothing (the encoder-decoder)."""
    return get(name_of(tape.meta))


def name_of(meta: dict) -> str:
    """The family named by a tape's meta (or a tape file's top level)."""
    return meta.get("family") or meta.get("kind") or "transformer"


def app_models() -> dict[str, Family]:
    """The known models the web app walks (a family's ``pretrained_names`` with its
    ``pretrained_app`` bindings), each → its family."""
    load_all()
    return {name: family for family in FAMILIES.values() if family.pretrained_app is not None
            for name in family.pretrained_names}


def for_pretrained(name: str) -> Family:
    """The family that loads ``name``: the one that names it among its ``pretrained_names``,
    else, for a folder, the family that loads model folders; anything else is refused in one
    line naming every known model."""
    load_all()
    for family in FAMILIES.values():
        if str(name).lower() in family.pretrained_names:
            return family
    folders = [f for f in FAMILIES.values() if f.pretrained]
    if folders and Path(str(name)).is_dir():
        return folders[0]
    known = [n for f in FAMILIES.values() for n in f.pretrained_names if "/" not in n]
    raise PretrainedError(f"--pretrained {name!r} is neither a model folder nor a known model "
                          f"(known: {', '.join(known) or 'none'})")


def for_pairs() -> Family:
    """The family that learns from sentence pairs (its ``pairs`` bindings): the registered
    ones first, then the built-in ones in order, each imported only if none before serves."""
    for name in [*(n for n in FAMILIES if n not in BUILT_IN), *BUILT_IN]:
        if get(name).pairs is not None:
            return get(name)
    raise HandformerError("no model family learns from sentence pairs")


def load_all() -> None:
    """Import every built-in family (and so register its ops, whose formulas a loaded tape
    needs)."""
    for name in BUILT_IN:
        get(name)
