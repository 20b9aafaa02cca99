"""The one place the server calls the renderers: the JSON tape, and the HTML export's panels,
each through a public function of its format (files/tape_json.py, render/html)."""

from __future__ import annotations

from .. import i18n
from ..files.tape_json import dumps
from ..files.tape_json import encode_array as json_array  # noqa: F401  (compare.py)
from ..render import html


def tape_json(tape) -> str:
    """Exactly what `handformer walk --format json` writes."""
    return dumps(tape)


def walk_panels(tape, precision: int = 3) -> dict:
    """The walkthrough's panels and table of contents as HTML, every language together."""
    return html.tape_panels(tape, precision)


def changed_panels(tape, have: dict, only=None, precision: int = 3) -> dict:
    """The panels a reader holding ``have`` (panel id → digest) lacks, with every digest."""
    return html.changed_panels(tape, have, only, precision)


def decode_panels(family, result, vocab, precision: int = 3) -> dict:
    """The decoding steps of a translation (`translate --explain`) as panels, told by the
    family's story of decoding."""
    return html.panels({code: family.explain(result, vocab, code) for code in i18n.languages()},
                       precision)


def stylesheet() -> str:
    """The export's style sheet (with every language's rules, colour palette and heatmap
    columns), served as /static/panels.css."""
    return html.stylesheet(i18n.languages())


def nav_script() -> str:
    """The export page's script (show all, enlarge a head, keys), served as /static/nav.js: it
    listens on the document, so it serves panels swapped in later too."""
    return html.nav_script()
