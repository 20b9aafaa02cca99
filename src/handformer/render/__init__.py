"""The renderers: one module (or package) per format, each with render(tape, options), found
through registry.py. Importing this package registers how a tape shows itself in Jupyter
(``Tape.html_hook``): the engine sits below the renderers and never imports them."""

from __future__ import annotations

from ..engine.tape import Tape


def notebook(tape: Tape) -> str:
    """What a tape shows in Jupyter: its panels without the page around them (render.html,
    imported when a tape is first shown)."""
    from .html.page import render_notebook

    return render_notebook(tape)


Tape.html_hook = notebook
