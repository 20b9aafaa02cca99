"""page.wayfinding draws each architecture once per language and shape and labels it where it
is shown (the overview's narrow diagram is also the map): every diagram and the map are what
drawing each afresh with its own label gives."""

import pytest

import handformer
from handformer import i18n
from handformer.narrate import build
from handformer.render.html import page
from handformer.render.html.svg_flow import flow_drawing, flow_svg, labelled
from handformer.render.html.view import Budget, section_view


def _panels(tape, level):
    by_lang = {code: build(tape, code, level) for code in i18n.languages()}
    by_id = {code: {s.id: s for s in sections} for code, sections in by_lang.items()}
    langs = list(by_lang)
    return [section_view({code: by_id[code].get(s.id) for code in langs}, 3, Budget(),
                         "pos {i}", "en") for s in by_lang[langs[0]]], langs


@pytest.mark.parametrize("options, level", [({}, "steps"), ({"family": "gpt"}, "all")])
def test_each_diagram_and_the_map_are_drawn_as_afresh(options, level):
    panels, langs = _panels(handformer.walk(**options), level)
    found = page.wayfinding(panels, langs)
    drawn = [p for p in panels if p["architecture"]]
    assert drawn
    for p in drawn:
        for code, arch in p["architecture"].items():
            for shape in ("wide", "narrow"):
                assert p["diagram"][shape][code] == flow_svg(arch, code, shape == "narrow",
                                                             p["title"][code])
    first = drawn[0]["architecture"]
    assert found["map"] == {code: flow_svg(arch, code, True, i18n.t(code, "page.map"))
                            for code, arch in first.items()}
    assert 'aria-label="' in found["map"]["en"]


def test_a_drawing_is_labelled_as_flow_svg_labels_it():
    arch = next(s.architecture for s in build(handformer.walk(), "en") if s.architecture)
    for title in ("", "Map <&>", "架构"):
        assert labelled(flow_drawing(arch, "en", True), title) == flow_svg(arch, "en", True, title)
    assert labelled(flow_drawing(None, "en"), "x") == flow_svg(None, "en", False, "x") == ""
