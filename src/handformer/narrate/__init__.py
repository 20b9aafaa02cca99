"""The walkthrough as sections (text, formulas, labelled matrices), read off a tape.

    >>> from handformer import api, narrate
    >>> sections = narrate.build(api.walk(), lang="zh")
    >>> narrate.select(sections, "7-9")
"""

from __future__ import annotations

from .document import Callout, Matrix, Section
from .select import select


def build(tape, lang: str = "en") -> list[Section]:
    """Every step the tape's model family tells (its story), in order, in ``lang`` (a language
    of handformer.i18n): for the encoder-decoder from the dataset to the predicted word (and,
    after a backward pass, the loss, every gradient and the update)."""
    from ..families.registry import family_of
    from .context import Ctx

    family = family_of(tape)
    ctx = Ctx(tape, lang)
    for narrator in family.story(tape):
        narrator(ctx)
    return ctx.sections


__all__ = ["Callout", "Matrix", "Section", "build", "select"]
