"""The walkthrough as one self-contained HTML page, and its panels for the web app.

page.py builds the page from its templates (templates/), view.py turns a section into what a
panel shows, toc.py the contents, svg_map.py the architecture map, errata.py and multiples.py
the boxes of tutorial mistakes and the small multiples of heads; fragments.py gives the web app
the export's own panels, incremental.py only those a reader lacks.
"""

from __future__ import annotations


def render(tape, options) -> str:
    """The renderer contract (render/registry.py): the page, every language in it."""
    from .page import render as page

    return page(tape, precision=options.precision, steps=options.steps, lang=options.lang,
                level=options.level)


def tape_panels(tape, precision: int = 3) -> dict:
    """The walkthrough's panels and contents as HTML fragments, every language together."""
    from .fragments import tape_panels as build

    return build(tape, precision)


def changed_panels(tape, have: dict, only=None, precision: int = 3) -> dict:
    """The walkthrough's panels that a reader holding ``have`` (id → digest) lacks."""
    from ... import i18n
    from ...narrate import build
    from .incremental import changed_panels as build_changed

    by_lang = {code: build(tape, code) for code in i18n.languages()}
    return build_changed(by_lang, have, only, precision)


def panels(by_lang: dict[str, list], precision: int = 3) -> dict:
    """Panels and contents of any sections (one list per language), as the page lays them out."""
    from .fragments import panels as build

    return build(by_lang, precision)


def stylesheet(langs: list[str]) -> str:
    from .page import stylesheet as css

    return css(langs)


def nav_script() -> str:
    from .page import nav_script as script

    return script()
