"""The export's own panels without the page around them: what the web app swaps into its page.

The app shows exactly what `walk --format html` shows (the same templates and views), in every
language; its language toggle shows one of them.
"""

from __future__ import annotations

from functools import lru_cache

from ... import i18n
from . import page, view
from .wayfinding import wayfinding

PANELS = ('{% from "panels.html.j2" import panel with context %}'
           '{% for p in panels %}{{ panel(p, langs) }}{% endfor %}')
# the export's nested contents (stack → layer → sub-layer → head), its entries numbered as the
# panels are; the app's page holds the list they go in
TOC = ('{% from "panels.html.j2" import toc_items with context %}{{ toc_items(toc) }}')


def tape_panels(tape, precision: int = 3) -> dict:
    """The walkthrough's panels and table of contents, every language together."""
    from ...narrate import build

    return panels({code: build(tape, code) for code in i18n.languages()}, precision)


def panels(by_lang: dict[str, list], precision: int = 3, lang: str = i18n.FIRST) -> dict:
    """As page.render_sections lays out its panels: {"panels": HTML, "toc": HTML}."""
    langs = list(by_lang)
    by_id = {code: {s.id: s for s in sections} for code, sections in by_lang.items()}
    budget, pos = view.Budget(), i18n.t(lang, "page.pos", i="{i}")
    views = [view.section_view({code: by_id[code].get(s.id) for code in langs}, precision,
                               budget, pos, lang) for s in by_lang[langs[0]]]
    context = {**page.page_text(langs, lang), **wayfinding(views, langs)}
    return {"panels": template(PANELS).render(panels=views, **context),
            "toc": template(TOC).render(panels=views, **context)}


@lru_cache(maxsize=4)
def template(source: str):
    return page.environment().from_string(source)
