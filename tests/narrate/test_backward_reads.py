"""Each gradient panel draws what its formula reads (issue 19): the upstream gradient of every
step that read X and the forward values its clause of the chain rule uses, then for the step's
own parameters its input X. The expected list comes from the JSON tape by the rules of the chain
rule written out here (not from the narration); the numbers drawn are the tape's; on the page
each drawn gradient links to the panel that shows it."""

from __future__ import annotations

import json
import re
from functools import lru_cache

import numpy as np

import handformer
from handformer.files.tape_json import dumps
from handformer.narrate import build
from handformer.narrate.document import Matrix
from handformer.render.html import page as html

POWER = re.compile(r"\\times 10\^\{(-?\d+)\}")
# Which of a reader's arrays its gradient clause for its k-th input uses (∂L/∂X = ∂L/∂Y·Wᵀ reads
# W; ∂L/∂Q = ∂L/∂S·K/√d_k reads K; ∂L/∂A = ∂L/∂Z·Vᵀ reads V; a softmax its output A; ReLU its
# input; layer norm its input, μ, σ and γ; the loss the probabilities).
CLAUSE = {("linear", 0): ["in1"], ("linear", 1): ["in0"], ("head_proj", 0): ["in1"], ("relu", 0): ["in0"],
          ("mask", 0): ["out"], ("softmax", 0): ["out"], ("scores", 0): ["in1"],
          ("scores", 1): ["in0"], ("attend", 0): ["in1"], ("attend", 1): ["in0"],
          ("layer_norm", 0): ["in0", "stats", "in1"], ("cross_entropy", 0): ["probs"]}
# ∂L/∂W = Xᵀ·∂L/∂Y reads X; ∂L/∂γ = Σ ∂L/∂Y ⊙ x̂ reads X, μ and σ; an embedding's rows the ids.
OWN = {"linear": ["in0"], "head_proj": ["in0"], "layer_norm": ["in0", "stats"], "embed": ["in0"]}


@lru_cache(maxsize=2)
def tape(norm: str = "post"):
    return handformer.walk(backward=True, norm=norm, final_norm=norm == "pre")


@lru_cache(maxsize=2)
def saved(norm: str = "post") -> dict:
    data = json.loads(dumps(tape(norm)))
    steps = {s["name"]: s for s in data["steps"]}
    x = {n: np.array(s["value"], dtype=float) for n, s in steps.items()}
    x |= {k: np.array(v, dtype=float) for k, v in data["params"].items()}
    for n, s in steps.items():
        if "mean" in (s.get("extras") or {}):
            x[f"{n}.stats"] = np.stack([np.array(s["extras"][k], dtype=float)
                                        for k in ("mean", "std")], axis=-1)
    g = {e["name"]: np.array(e["value"], dtype=float) for e in data["grads"]}
    return {"x": x, "g": g, "steps": steps}


def expected(name: str, head: int | None, norm: str) -> list[tuple[str, np.ndarray]]:
    s = saved(norm)
    step = s["steps"][name]
    out = []
    for use, k in readers(name, norm):
        if use["op"] != "cross_entropy":
            out += split(f"grad.{use['name']}", s["g"][use["name"]], head, grad=True)
        for what in CLAUSE.get((use["op"], k), []):
            out += array(use, what, head, norm)
    if any(i in s["g"] and i not in s["steps"] for i in step["inputs"]):
        for what in OWN.get(step["op"], []):
            out += array(step, what, head, norm)
    return list(dict(out).items())


def readers(name: str, norm: str) -> list[tuple[dict, int]]:
    """The steps that read ``name`` (and which input it is to them); a step that only hands the
    value on (a layer's output, the heads joined) is looked through to its own readers."""
    s = saved(norm)
    found = []
    for use in (u for u in s["steps"].values() if name in u["inputs"] and not u.get("view")
                and u["name"] in s["g"]):
        if use["op"] in ("identity", "merge_heads"):
            found += readers(use["name"], norm)
        else:
            found.append((use, use["inputs"].index(name)))
    return found


def array(step: dict, what: str, head: int | None, norm: str) -> list:
    x = saved(norm)["x"]
    key = {"out": step["name"], "probs": "generator.probs",
           "stats": f"{step['name']}.stats"}.get(what) or step["inputs"][int(what[2:])]
    return split(key, x[key], head)


def split(name: str, value: np.ndarray, head: int | None, grad: bool = False) -> list:
    """A 3-D array by head: the worked head's slice, else every head's (up to 4)."""
    if value.ndim < 3:
        return [(name, value)]
    base, leaf = name.rsplit(".", 1)
    heads = [head] if head is not None else range(min(value.shape[0], 4))
    return [(f"{name}.head.{h}" if grad else f"{base}.head.{h}.{leaf}", value[h]) for h in heads]


def drawn(section) -> list[Matrix]:
    arrow = section.equation.index(r"\Rightarrow")
    return [m for m in section.equation[:arrow] if isinstance(m, Matrix)]


def unscaled(m: Matrix) -> np.ndarray:
    power = POWER.search(m.symbol)
    return m.value * 10.0 ** int(power.group(1)) if power else m.value


def worked_head(section) -> int | None:
    own = section.equation[section.equation.index(r"\Rightarrow") + 1:]
    for m in own:
        if isinstance(m, Matrix) and m.highlight is not None and m.highlight.cell is not None:
            found = re.search(r"\.head\.(\d+)$", m.name)
            return int(found.group(1)) if found else None
    return None


def check_every_panel(norm: str) -> int:
    checked = 0
    for s in (x for x in build(tape(norm), "en") if x.phase == "backward"):
        want = expected(s.steps[0], worked_head(s), norm)
        got = drawn(s)
        assert [m.name for m in got] == [n for n, _ in want], s.id
        for m, (_, value) in zip(got, want, strict=True):
            assert np.allclose(unscaled(m), value, rtol=1e-12, atol=1e-15), (s.id, m.name)
        checked += 1
    return checked


def test_every_gradient_panel_draws_exactly_the_arrays_its_formula_reads():
    assert check_every_panel("post") > 30


def test_pre_norm_panels_whose_reader_is_a_layer_norm_draw_its_input_mean_sigma_and_gamma():
    assert check_every_panel("pre") > 30
    sections = {s.id: s for s in build(tape("pre"), "en")}
    names = [m.name for m in drawn(sections["grad.src_embed.out"])]
    assert names[:4] == ["grad.encoder.0.ln1.out", "src_embed.out", "encoder.0.ln1.out.stats",
                         "encoder.0.ln1.gamma"]


def test_the_upstream_gradients_link_to_the_panels_that_show_them_in_every_format():
    sections = build(tape(), "en")
    shows = {f"grad.{n}": s for s in sections if s.phase == "backward" for n in s.steps}
    ffn = next(s for s in sections if s.id == "grad.decoder.0.ffn.pre")
    upstream = drawn(ffn)[0]
    assert upstream.name == "grad.decoder.0.ffn.out"
    assert upstream.source == shows["grad.decoder.0.ffn.out"].id
    pre = next(m for m in drawn(ffn) if m.name == "decoder.0.ffn.pre")
    assert pre.source == "decoder.0.ffn.pre"  # the forward panel that computed H
    page = html.render_sections({"en": sections}, 3, "t", "en")
    panel = page.split('id="s-grad.decoder.0.ffn.pre"', 1)[1].split("<section ", 1)[0]
    names = re.findall(r'<figure class="mx[^"]*" data-name="([^"]+)"', panel)
    assert names[:3] == ["grad.decoder.0.ffn.out", "decoder.0.ffn.pre", "decoder.0.ln2.out"]
    assert 'href="#s-grad.decoder.0.ffn.out"' in panel and 'href="#s-decoder.0.ffn.pre"' in panel


def test_the_terminal_and_markdown_name_the_panel_each_drawn_input_comes_from():
    from handformer.render.markdown import render_sections as markdown
    from handformer.render.terminal.screen import render_text

    sections = build(tape(), "en")
    number = {s.id: s.panel for s in sections}
    ffn = next(s for s in sections if s.id == "grad.decoder.0.ffn.pre")
    upstream, saved_h = number["grad.decoder.0.ffn.out"], number["decoder.0.ffn.pre"]
    whole = render_text(sections, 3, 120)
    text = whole.split(ffn.heading, 1)[1].split("\nStep ", 1)[0]
    assert f"∂L/∂FFN  (6×6)  ← Step {upstream}" in text and f"H  (6×6)  ← Step {saved_h}" in text
    md = markdown(sections, 3, "en")
    assert f"∂L/∂FFN ← [Step {upstream} · " in md and f"H ← [Step {saved_h} · " in md


def test_a_drawn_layer_output_is_named_as_the_formula_reading_it_names_it():
    """∂L/∂W_out = Yᵀ·∂L/∂logits and ∂L/∂W^K = Mᵀ·∂L/∂K read a layer's output: drawn as the
    reading step calls its input (the JSON tape's symbols), not as the generic "out"."""
    sections = {s.id: s for s in build(tape(), "en")}
    s = saved()["steps"]
    for panel, reader, name in (("grad.generator.logits", "generator.logits", "decoder.0.out"),
                                ("grad.decoder.0.cross_attn.k", "decoder.0.cross_attn.k",
                                 "encoder.0.out")):
        m = next(m for m in drawn(sections[panel]) if m.name == name)
        assert m.symbol == s[reader]["symbols"]["x"], (panel, m.symbol)
    assert [s[r]["symbols"]["x"] for r in ("generator.logits", "decoder.0.cross_attn.k")] == ["Y", "M"]


def test_a_drawn_layer_output_links_to_the_add_and_norm_that_computed_it():
    """Y ("decoder.0.out") and M ("encoder.0.out") only rename the last layer norm's output on
    the tape (identity steps): drawn in ∂L/∂W_out or ∂L/∂W^K, they link to that panel, read off
    the JSON tape's inputs here, in the page and the terminal."""
    from handformer.render.terminal.screen import render_text

    steps = saved()["steps"]
    sections = build(tape(), "en")
    by_id = {s.id: s for s in sections}
    for panel, name in (("grad.generator.logits", "decoder.0.out"),
                        ("generator.logits", "decoder.0.out"),
                        ("grad.decoder.0.cross_attn.k", "encoder.0.out")):
        assert steps[name]["op"] == "identity"
        norm = steps[name]["inputs"][0]
        assert steps[norm]["op"] == "layer_norm"
        m = next(m for m in by_id[panel].equation if isinstance(m, Matrix) and m.name == name)
        assert m.source == norm, (panel, m.source)
    page = html.render_sections({"en": sections}, 3, "t", "en")
    logits = page.split('id="s-grad.generator.logits"', 1)[1].split("<section ", 1)[0]
    assert 'href="#s-decoder.0.ln3.out"' in logits
    text = render_text(sections, 3, 120).split(by_id["grad.generator.logits"].heading, 1)[1]
    assert f"Y  (6×6)  ← Step {by_id['decoder.0.ln3.out'].panel}" in text.split("\nStep ", 1)[0]
