"""One run for every surface: options in, a finished tape out.

The command line (`handformer walk`), the Python API (``handformer.walk``) and the web app all
call ``run`` (or ``prepare`` then ``finish``, when a request checks the model before the work);
the family comes from the registry (``options["family"]``, or the family that loads
``options["pretrained"]``), so nothing here names one.

    >>> from handformer import pipeline
    >>> done = pipeline.run({"src": "the storm", "backward": True})
    >>> done.tape.grads["generator.logits"].shape
    (4, 25)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .engine import finite
from .engine.tape import Tape
from .errors import HandformerError
from .families import registry
from .families.registry import Family


class Run:
    """A finished run: its family, the model it built (config, vocabulary, parameters), the
    tape, and what the user should be told (warnings). (a plain class: a dataclass compiles its methods from source text at every start-up.)"""

    __slots__ = ("family", "model", "tape", "notes")

    def __init__(self, family: Family, model: Any, tape: Tape, notes: tuple[str, ...] = ()):
        self.family, self.model, self.tape, self.notes = family, model, tape, notes


def family_for(options: dict) -> Family:
    """The family named by ``options["family"]`` (the encoder-decoder by default), or the one
    that loads ``options["pretrained"]``; both given must agree."""
    named = options.get("family")
    if not options.get("pretrained"):
        return registry.get(named or registry.DEFAULT)
    family = registry.for_pretrained(options["pretrained"])
    if named and named != family.name:
        raise HandformerError(f"--pretrained walks a model of the {family.name} family, not "
                              f"{named}; drop --family {named}")
    return family


def prepare(options: dict) -> tuple[Family, Any]:
    """The family and its ready model: the config built from the options and checked, the
    vocabulary and the parameters (fresh, loaded, or a checkpoint's); nothing computed yet."""
    family = family_for(options)
    if options.get("backward") and family.backward is None:
        raise HandformerError(f"the {family.name} family has no backward pass by hand yet; "
                              "drop --backward")
    if options.get("beside_trained") and not family.beside_trained:
        raise HandformerError(f"--beside-trained: the {family.name} family does not train a "
                              "copy on the spot")
    options = _generation(family, registry.refuse_foreign(family.name, options))
    return family, family.prepare({k: v for k, v in options.items() if k != "family"})


# The walk's options that write tokens after its text (a family with ``generates`` reads them).
GENERATION = {"generate": "--generate", "temperature": "--temperature", "top_k": "--top-k",
              "top_p": "--top-p"}


def _generation(family: Family, options: dict) -> dict:
    """The options for ``family``: one of GENERATION given to a family that writes no tokens in
    its walk is refused by name (naming the families that do); left unset, they are dropped."""
    if family.generates:
        return options
    given = [flag for name, flag in GENERATION.items() if options.get(name) is not None]
    if given:
        takers = [n for n in registry.names() if registry.get(n).generates]
        raise HandformerError(f"{given[0]}: the {family.name} family writes no tokens after its "
                              f"walk (the {', '.join(takers)} family does: add --family "
                              f"{takers[0]})")
    return {k: v for k, v in options.items() if k not in GENERATION}


def finish(family: Family, model: Any, options: dict,
           before_backward: Callable[[Tape], None] | None = None) -> Run:
    """One input's every step (and, with ``options["backward"]``, every gradient and one
    update). ``before_backward(tape)`` may refuse the run after the forward pass, before the
    reverse pass spends its time and memory."""
    with finite.quiet():
        tape = family.walk(model, options)
    finite.check(tape)
    if options.get("backward"):
        if before_backward is not None:
            before_backward(tape)
        with finite.quiet():
            family.backward(tape, model, options)
        finite.check(tape)
    return Run(family, model, tape, tuple(family.notes(model, tape)))


def run(options: dict, before_backward: Callable[[Tape], None] | None = None) -> Run:
    """Options → a finished run (``prepare`` then ``finish``)."""
    family, model = prepare(options)
    return finish(family, model, options, before_backward)
