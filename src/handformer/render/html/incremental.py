"""Only the panels that changed: what the web app sends after an edit.

Every panel gets a digest of everything its HTML is made of: its sections in every language
(text and numbers), its place (number and map block), the number and title of every panel it
links to, and what the page's "show all" budget granted its matrices. A reader that already holds a panel with that digest is sent nothing for it. A
section seen before is not laid out again: its view is kept, keyed by its fingerprint, and used
again when the budget grants its matrices the same as before. Each panel's HTML is exactly what
fragments.panels gives for it.
"""

from __future__ import annotations

import hashlib
import pickle
import threading
from collections import OrderedDict

from ... import i18n
from . import page, view
from .fragments import PANELS, TOC, template
from .wayfinding import wayfinding

CACHE_SIZE = 4000  # section views kept (a `small` walk has about 130 panels)
_cache: OrderedDict = OrderedDict()
_lock = threading.Lock()


def changed_panels(by_lang: dict[str, list], have: dict[str, str], only=None,
                   precision: int = 3, lang: str = i18n.FIRST) -> dict:
    """{"order": ids, "digests": id → digest, "panels": id → HTML of each panel whose digest the
    reader lacks (of those in ``only`` when given), "frame": the frame's digest, "toc": the
    contents' HTML}. Given ``only``, the panels after the last of them get no digest, and
    "frame" and "toc" are None."""
    langs = list(by_lang)
    by_id = {code: {s.id: s for s in sections} for code, sections in by_lang.items()}
    order = [s.id for s in by_lang[langs[0]]]
    budget, pos = view.Budget(), i18n.t(lang, "page.pos", i="{i}")
    # asked for some panels only: those after the last of them are not laid out (their place,
    # numbers and titles, all that the asked ones show of them, come from their sections)
    last = max((order.index(i) for i in only if i in order), default=0) if only is not None \
        else len(order) - 1
    views, grants = [], []
    for k, sid in enumerate(order):
        sections = {code: by_id[code].get(sid) for code in langs}
        v, granted = _view(sections, precision, budget, pos, lang) if k <= last else (_stub(sections), None)
        views.append(v)
        grants.append(granted)
    context = {**page.page_text(langs, lang), **wayfinding(views, langs)}
    frame = _digest(repr([(v["id"], v["number"], v["title"], v["place"], v["phase"], v["level"],
                           v["reads"], v["feeds"], v["architecture"]) for v in views]
                         + [context["has_wide"], precision, lang]).encode())
    index = context["index"]
    digests = {v["id"]: _digest(repr((v["print"], g, v["seq"], v["block"],
                                      [(r, index.get(r)) for r in v["refs"]])).encode())
               for v, g in zip(views, grants, strict=True) if g is not None}
    wanted = set(order if only is None else only)
    html = {v["id"]: template(PANELS).render(panels=[v], **context) for v in views
            if v["id"] in wanted and have.get(v["id"]) != digests[v["id"]]}
    whole = last == len(order) - 1
    return {"order": order, "digests": digests, "panels": html, "frame": frame if whole else None,
            "toc": template(TOC).render(panels=views, **context) if whole else None}


def _view(sections: dict, precision: int, budget: view.Budget, pos: str, lang: str):
    """The section's view (kept from before when its fingerprint and its grants match) and
    what the budget granted its matrices."""
    key = fingerprint([sections, precision, pos, lang])
    with _lock:
        kept = _cache.get(key)
        if kept is not None:
            _cache.move_to_end(key)
    if kept is not None and _replay(budget, kept[1]):
        return dict(kept[0]), kept[1]
    recorder = _Recorder(budget)
    v = view.section_view(sections, precision, recorder, pos, lang) | {"print": key}
    v["refs"] = sorted({*v["reads"], *v["feeds"], *_sources(v["equation"]), *_sources(v["callouts"])})
    takes = tuple(recorder.takes)
    with _lock:
        _cache[key] = (v, takes)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return dict(v), takes


def _stub(sections: dict) -> dict:
    """What the panels that are laid out show of one that is not: its place and title."""
    base = next(s for s in sections.values() if s is not None)
    return {"id": base.id, "anchor": "s-" + base.id, "number": base.number, "phase": base.phase,
            "title": {code: (s or base).title for code, s in sections.items()},
            "place": {code: list((s or base).place) for code, s in sections.items()},
            "reads": list(base.reads), "feeds": list(base.feeds), "level": base.level,
            "architecture": None, "terms": [], "refs": []}


def _sources(tree) -> set:
    """The ids of the steps a view's matrices link to ("from step n")."""
    found = set()
    if isinstance(tree, dict):
        if isinstance(tree.get("source"), str):
            found.add(tree["source"])
        for x in tree.values():
            found |= _sources(x)
    elif isinstance(tree, list):
        for x in tree:
            found |= _sources(x)
    return found


def _replay(budget: view.Budget, takes: tuple) -> bool:
    """Ask the budget again for what a kept view asked; False (and the budget as it was) when
    it would now answer otherwise."""
    before = budget.cells
    for n, granted in takes:
        if budget.take(n) != granted:
            budget.cells = before
            return False
    return True


class _Recorder:
    """A budget that remembers what it was asked and what it granted."""

    def __init__(self, budget: view.Budget):
        self.budget, self.takes = budget, []

    def take(self, n: int) -> bool:
        granted = self.budget.take(n)
        self.takes.append((n, granted))
        return granted


def fingerprint(obj) -> str:
    """A digest of text, numbers, arrays, dataclasses and containers of them: of their pickle,
    so equal content shared differently may digest apart (the panel is then sent again, never
    wrongly kept)."""
    return _digest(pickle.dumps(obj, protocol=5))


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()
