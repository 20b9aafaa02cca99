"""The one place the server calls the renderers: the JSON tape, and the HTML export's panels.

The app swaps these panels into its page, so they are the export's own (render/html.py's
templates and views), in both languages; the page's language toggle shows one of them.
"""

from __future__ import annotations

from functools import lru_cache

from ..render import html, html_view
from ..render.json_tape import dumps
from ..render.json_tape import encode_array as json_array  # noqa: F401  (compare.py)

_PANELS = ('{% from "panels.html.j2" import panel %}'
           '{% for p in panels %}{{ panel(p, ["en", "zh"]) }}{% endfor %}')
_TOC = ('{% for p in panels %}<li><a href="#{{ p.anchor }}"><span class="num">{{ p.number }}'
        '</span> <span class="l-en" lang="en">{{ p.title.en }}</span><span class="l-zh" '
        'lang="zh-CN">{{ p.title.zh }}</span></a></li>{% endfor %}')


def tape_json(tape) -> str:
    """Exactly what `handformer walk --format json` writes."""
    return dumps(tape)


def walk_panels(tape, precision: int = 3) -> dict:
    """The walkthrough's panels and table of contents as HTML, English and Chinese together."""
    from ..narrate import build

    return _panels(build(tape, "en"), build(tape, "zh"), precision)


def decode_panels(result, vocab, precision: int = 3) -> dict:
    """The decoding steps of a translation (`translate --explain`) as panels."""
    from ..narrate.decode import build

    return _panels(build(result, vocab, "en"), build(result, vocab, "zh"), precision)


def _panels(en: list, zh: list, precision: int) -> dict:
    by_id = {s.id: s for s in zh}
    budget = html_view.Budget()
    views = [html_view.section_view(s, by_id.get(s.id), precision, budget) for s in en]
    return {"panels": _template(_PANELS).render(panels=views),
            "toc": _template(_TOC).render(panels=views)}


@lru_cache(maxsize=4)
def _template(source: str):
    return html._env().from_string(source)


def stylesheet() -> str:
    """The export's style sheet and colour palette, served as /static/panels.css."""
    env = html._env()
    return env.globals["asset"]("style.css") + "\n" + env.globals["palette"]
