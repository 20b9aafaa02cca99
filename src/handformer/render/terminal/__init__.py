"""The walkthrough as text: styled for a terminal (colours, its width) or plain for a file.

screen.py lays out the sections, matrix.py draws a matrix as rows of text, wrap.py breaks lines
(never inside a Chinese word), ansi.py knows the terminal.
"""

from __future__ import annotations


def render(tape, options) -> str:
    """The renderer contract (render/registry.py): the tape drawn as the terminal shows it."""
    from ...narrate import walkthrough
    from ...narrate.overview import next_steps
    from .screen import render as draw

    on_screen = options.terminal is not None and options.terminal.escapes  # not piped, no file
    closing = next_steps(tape, options.lang) if on_screen else None
    sections = walkthrough(tape, options) + ([closing] if closing else [])
    return draw(sections, options.precision, options.width, options.terminal)
