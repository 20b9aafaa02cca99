"""No backward product is hidden (issue 46): a step that only hands a value on (a layer's output
Y⁽¹⁾ or M, the heads joined side by side) has no panel, so the product behind it (through
W_outᵀ, through W^Oᵀ, through W^Kᵀ and W^Vᵀ into the encoder) is told in the panel of the value
it hands on. The readers are found here from the tape's inputs alone, looked through such steps
by hand; every backward panel's formula names each reader's upstream gradient and weight, and
its worked cell never says a gradient passes back unchanged where a product happens."""

from __future__ import annotations

from functools import lru_cache

import pytest

import handformer
from handformer.narrate import build, names

HANDS_ON = ("identity", "merge_heads")
PRODUCTS = ("linear", "head_proj")  # ∂L/∂X = ∂L/∂Y·Wᵀ


@lru_cache(maxsize=4)
def sections(family: str, layers: int):
    options = {"backward": True} | ({"family": family} if family != "transformer" else {})
    if family == "llama":  # the decoder-only family with today's parts
        options |= {"family": "gpt", "preset": "llama"}
    if layers > 1:
        options["layers"] = layers
    tape = handformer.walk(**options)
    return tape, [s for s in build(tape, "en") if s.phase == "backward"
                  and s.id.removeprefix("grad.") in tape.index]


def readers(tape, name: str) -> list:
    """The steps that read ``name`` and sent a gradient back, looked through hand-on steps."""
    found = []
    for step in tape.steps:
        if step.view or name not in step.inputs or step.name not in tape.grads:
            continue
        found += readers(tape, step.name) if step.op in HANDS_ON else [step]
    return found


CASES = [("transformer", 1), ("transformer", 2), ("gpt", 1), ("llama", 1)]


@pytest.mark.parametrize("family, layers", CASES)
def test_every_backward_formula_names_the_gradient_and_weight_of_each_reader(family, layers):
    tape, panels = sections(family, layers)
    assert len(panels) > 15
    for s in panels:
        name = s.id.removeprefix("grad.")
        for use in readers(tape, name):
            if use.op == "cross_entropy":
                continue
            up = r"\frac{\partial L}{\partial " + names.symbol(use.name, use.op)
            if use.op in ("layer_norm", "rms_norm"):  # ĝ = γ ⊙ ∂L/∂Y, Y the norm's output
                assert r"\hat g = \gamma \odot" in s.formula, s.id
            else:
                assert up in s.formula, (s.id, use.name, s.formula)
            if use.op in PRODUCTS and use.inputs[0] == name:
                weight = names.symbol(use.inputs[1])
                assert weight.split("^")[0] in s.formula and r"\top" in s.formula, (s.id, use.name)


@pytest.mark.parametrize("family, layers", CASES)
def test_no_worked_cell_says_unchanged_where_a_product_happens(family, layers):
    tape, panels = sections(family, layers)
    for s in panels:
        text = next((p for p in s.paragraphs if p.startswith("Worked out for one cell")), "")
        uses = readers(tape, s.id.removeprefix("grad."))
        assert "unchanged" not in text, (s.id, text)
        assert text.count("copies its gradient") == sum(u.op == "add" for u in uses), s.id
        products = sum(u.op in PRODUCTS for u in uses)  # X·W, or Xᵀ·∂L/∂Y for a tied W_out
        assert text.count("products added up") >= products, (s.id, text)


def test_the_hand_off_from_decoder_to_encoder_is_a_panel_with_its_formula_and_links():
    """∂L/∂M = ∂L/∂K·W^Kᵀ + ∂L/∂V·W^Vᵀ: the encoder's last layer norm receives the decoder's
    cross-attention gradient, drawn and linked to the panels of ∂L/∂K and ∂L/∂V."""
    tape, panels = sections("transformer", 1)
    s = next(p for p in panels if p.id == "grad.encoder.0.ln2.out")
    first = s.formula.split(r",\quad ")[0]
    assert first.startswith(r"\frac{\partial L}{\partial \mathrm{LN}(R)} = "
                            r"\frac{\partial L}{\partial M} = ")
    assert "W^{K(i)}" in first and "W^{V(i)}" in first and first.count(" + ") == 1
    sources = {m.source for m in s.equation if getattr(m, "source", None)}
    assert {"grad.decoder.0.cross_attn.k", "grad.decoder.0.cross_attn.v"} <= sources


def worked_entry(section) -> tuple:
    own = section.equation[section.equation.index(r"\Rightarrow") + 1:]
    m = next(m for m in own if getattr(m, "highlight", None) and m.highlight.cell is not None)
    return m.highlight.cell


def test_a_worked_gradient_cell_lights_the_row_and_the_column_that_make_it():
    """As forward lights row i of Q and column j of Kᵀ for S_ij: ∂L/∂X_ij = Σ_c ∂L/∂H_ic·W₁_jc
    lights row i of ∂L/∂H and row j of W₁; the residual's copy, its entry (row i, column j);
    ∂L/∂Q_ij = Σ_m ∂L/∂S_im·K_mj/√d_k, row i of ∂L/∂S and column j of K."""
    tape, panels = sections("transformer", 1)
    by_id = {s.id: s for s in panels}
    cases = {"grad.decoder.0.ln2.out": {"grad.decoder.0.ffn.pre": ("row", 0),
                                        "decoder.0.ffn.w_1": ("row", 1),
                                        "grad.decoder.0.ln3.resid": ("cross", None)},
             "grad.decoder.0.cross_attn.q": {"grad.decoder.0.cross_attn.scores.head.{h}": ("row", 0),
                                             "decoder.0.cross_attn.head.{h}.k": ("col", 1)}}
    for sid, want in cases.items():
        s = by_id[sid]
        i, j = worked_entry(s)
        head = next((m.name.rsplit(".", 1)[1] for m in s.equation
                     if getattr(m, "highlight", None) and m.highlight.cell
                     and ".head." in m.name), "0")
        drawn = {m.name: m for m in s.equation[:s.equation.index(r"\Rightarrow")]
                 if hasattr(m, "highlight")}
        for name, (how, axis) in want.items():
            m = drawn[name.format(h=head)]
            line = (i, j)[axis] if axis is not None else None
            expected = {"row": ((line,), ()), "col": ((), (line,)), "cross": ((i,), (j,))}[how]
            assert (m.highlight.rows, m.highlight.cols) == expected, (sid, name)
    for s in panels:  # every drawn 2-D input lights something (but what only ∂L/∂γ reads)
        step = tape.index[s.id.removeprefix("grad.")]
        own = {step.inputs[0], f"{step.name}.stats"} if step.op == "layer_norm" else set()
        drawn = s.equation[:s.equation.index(r"\Rightarrow")] if r"\Rightarrow" in s.equation \
            else []
        for m in drawn:
            if hasattr(m, "highlight") and m.value.ndim == 2 and m.value.shape[0] > 1 \
                    and m.name not in own:
                assert m.highlight is not None, (s.id, m.name)
