"""The one place the server calls the renderers: the JSON tape, and the HTML export's panels.

The app swaps these panels into its page, so they are the export's own (render/html.py's
templates and views), in every language; the page's language toggle shows one of them.
"""

from __future__ import annotations

from functools import lru_cache

from .. import i18n
from ..files.tape_json import dumps
from ..files.tape_json import encode_array as json_array  # noqa: F401  (compare.py)
from ..render.html import page as html
from ..render.html import view as html_view

_PANELS = ('{% from "panels.html.j2" import panel with context %}'
           '{% for p in panels %}{{ panel(p, langs) }}{% endfor %}')
# the export's nested contents (stack → layer → sub-layer → head), its entries numbered as the
# panels are; the app's page holds the list they go in
_TOC = ('{% from "panels.html.j2" import toc_items with context %}{{ toc_items(toc) }}')


def tape_json(tape) -> str:
    """Exactly what `handformer walk --format json` writes."""
    return dumps(tape)


def walk_panels(tape, precision: int = 3) -> dict:
    """The walkthrough's panels and table of contents as HTML, every language together."""
    from ..narrate import build

    return _panels({code: build(tape, code) for code in i18n.languages()}, precision)


def decode_panels(result, vocab, precision: int = 3) -> dict:
    """The decoding steps of a translation (`translate --explain`) as panels."""
    from ..families.transformer.explain import build

    return _panels({code: build(result, vocab, code) for code in i18n.languages()}, precision)


def _panels(by_lang: dict[str, list], precision: int, lang: str = i18n.FIRST) -> dict:
    """As html.render_sections lays out its panels, without the page around them."""
    langs = list(by_lang)
    by_id = {code: {s.id: s for s in sections} for code, sections in by_lang.items()}
    budget, pos = html_view.Budget(), i18n.t(lang, "page.pos", i="{i}")
    views = [html_view.section_view({code: by_id[code].get(s.id) for code in langs}, precision,
                                    budget, pos, lang) for s in by_lang[langs[0]]]
    context = {**html._page_text(langs, lang), **html.wayfinding(views, langs)}
    return {"panels": _template(_PANELS).render(panels=views, **context),
            "toc": _template(_TOC).render(panels=views, **context)}


@lru_cache(maxsize=4)
def _template(source: str):
    return html._env().from_string(source)


def stylesheet() -> str:
    """The export's style sheet (with every language's rules, colour palette and heatmap
    columns), served as /static/panels.css."""
    return html.stylesheet(i18n.languages())


def nav_script() -> str:
    """The export page's script (show all, enlarge a head, keys), served as /static/nav.js: it
    listens on the document, so it serves panels swapped in later too."""
    return html.nav_script()
