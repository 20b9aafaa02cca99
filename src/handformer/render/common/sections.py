"""The sections a text format draws: the tape's story at the chosen level, cut to --steps."""

from __future__ import annotations


def sections(tape, options) -> list:
    """``narrate.build`` in ``options.lang`` at ``options.level``, then ``options.steps``."""
    from ...narrate import build, select

    return select(build(tape, options.lang, options.level), options.steps)
