"""What lets a reader of the page find their way: panel numbers, the index the links between
steps use, the table of contents, the architecture map and each panel's diagram."""

from __future__ import annotations

from ... import i18n
from .svg_flow import drawn_block, flow_drawing, labelled
from .svg_map import block_of
from .svg_strip import strip_svg
from .toc import toc_tree


def wayfinding(panels: list[dict], langs: list[str]) -> dict:
    """What lets a reader find their way: each panel numbered 1, 2, 3 … in reading order as
    every format numbers it (Section.panel; the tutorial's own numbers repeat and jump), an
    index for links between steps, the nested table of contents, and the architecture map with
    each panel's block."""
    archs = next((p["architecture"] for p in panels if p["architecture"]), None) or {}
    first = archs.get(langs[0])
    diagram = _Diagrams()
    for k, p in enumerate(panels, 1):  # the sections' own numbers (a cut keeps its numbers)
        p["seq"] = p.get("panel") or k
        p["block"] = drawn_block(first, block_of(first, p["id"], p["phase"]))
        by_lang = p["architecture"] or {}
        p["diagram"] = {shape: {code: diagram(arch, code, shape == "narrow", p["title"][code])
                                for code, arch in by_lang.items()} for shape in ("wide", "narrow")}
    index = {p["id"]: {"anchor": p["anchor"], "seq": p["seq"], "title": p["title"]}
             for p in panels}
    return {"index": index, "toc": toc_tree(panels, langs),
            "map": {code: diagram(arch, code, True, i18n.t(code, "page.map"))
                    for code, arch in archs.items()},
            "strip": {code: strip_svg(arch, code, i18n.t(code, "page.map"))
                      for code, arch in archs.items()},
            "has_wide": any(item.get("matrix", {}).get("wide")
                            for p in panels for term in p["terms"] for item in term)}


class _Diagrams:
    """The architecture diagrams of one page, each drawn once and labelled where it is shown:
    the overview's narrow diagram is also the map, under another label."""

    def __init__(self):
        self._drawn: dict[tuple[int, str, bool], tuple[str, str] | None] = {}

    def __call__(self, arch, lang: str, narrow: bool, title: str) -> str:
        key = (id(arch), lang, narrow)  # (the architectures live as long as the page's panels)
        if key not in self._drawn:
            self._drawn[key] = flow_drawing(arch, lang, narrow)
        return labelled(self._drawn[key], title)
