"""The walkthrough as sections (text, formulas, labelled matrices), read off a tape.

    >>> from handformer import api, narrate
    >>> sections = narrate.build(api.walk(), lang="zh")
    >>> narrate.select(sections, "7-9")
"""

from __future__ import annotations

from .document import Callout, Matrix, Section
from .select import select


def build(tape, lang: str = "en", level: str = "steps") -> list[Section]:
    """Every step the tape's model family tells (its story), in order, in ``lang`` (a language
    of handformer.i18n): for the encoder-decoder the overview, the dataset to the predicted word
    (and, after a backward pass, the loss, every gradient and the update), the recap.

    ``level``: "overview" (the overview, one line per tutorial stage, the recap), "steps" (every step,
    each explanation told once and then referred to) or "all" (every explanation every time)."""
    from ..errors import HandformerError
    from ..families.registry import family_of
    from . import flow, places
    from .context import Ctx
    from .overview import LEVELS, at_level, link_blocks

    if level not in LEVELS:
        raise HandformerError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    family = family_of(tape)
    ctx = Ctx(tape, lang, level=level)
    for narrator in family.story(tape):
        narrator(ctx)
    link_blocks(ctx.sections)
    flow.link(ctx, ctx.sections)
    places.assign(ctx, ctx.sections)
    return at_level(ctx.sections, level, ctx)


def walkthrough(tape, options) -> list[Section]:
    """What a text format draws: ``build`` in ``options.lang`` at ``options.level``, cut to
    ``options.steps`` (render/registry.Options)."""
    return select(build(tape, options.lang, options.level), options.steps)


__all__ = ["Callout", "Matrix", "Section", "build", "select", "walkthrough"]
