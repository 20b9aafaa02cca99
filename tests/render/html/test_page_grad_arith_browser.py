"""A clicked cell of a backward panel shows its arithmetic (issue 19), in headless Chromium: a
gradient that is a matrix product (∂L/∂X = ∂L/∂Y·Wᵀ, ∂L/∂W = Xᵀ·∂L/∂Y, ∂L/∂Q = ∂L/∂S·K/√d_k)
term by term, and one read by two steps as the sum of their shares. The test redoes the sum from
the terms the page shows (the numbers its drawn matrices carry, × 10^their power) and finds the
cell; it also checks each dot product's left factors are the row or column the page draws, and
the cell against the tape's own gradient."""

from __future__ import annotations

import numpy as np
import pytest

import handformer
from handformer.render.html import page as html
from support.browser import CHROMIUM, open_page

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")]

HALF = 0.0005  # half the last shown digit

READ_JS = r"""([sid, name]) => {
  const panel = document.getElementById('s-' + sid);
  const box = panel.querySelector('.arith');
  if (!box) return null;
  const shares = Array.from(box.querySelectorAll(':scope > .share')).map(s => ({
    kind: s.dataset.kind, value: +s.dataset.value, scale: +(s.dataset.scale || 1),
    x: s.dataset.x, p: +(s.dataset.p || 0), text: s.textContent,
    terms: Array.from(s.querySelectorAll('.t')).map(t => ({a: t.dataset.a, b: t.dataset.b,
                                                          pa: +t.dataset.pa, pb: +t.dataset.pb}))}));
  return {kind: box.dataset.kind, value: +box.dataset.value, power: +box.dataset.power,
          cell: box.dataset.cell, shares, text: box.textContent,
          picked: panel.querySelectorAll('td.pick').length};
}"""


def num(text: str) -> float:
    return float(text.strip().replace("\u2212", "-"))


@pytest.fixture(scope="module")
def tape():
    return handformer.walk(backward=True)


@pytest.fixture(scope="module")
def page(browser, tmp_path_factory, tape):
    path = tmp_path_factory.mktemp("grad_arith") / "b.html"
    path.write_text(html.render(tape), encoding="utf-8")
    p = open_page(browser, path)  # page errors and console errors recorded
    yield p
    assert not p.errors
    p.context.close()


def click(page, sid: str, name: str, i: int, j: int) -> dict:
    fig = page.locator(f'section[id="s-{sid}"] figure.mx[data-name="{name}"]').last
    fig.locator(f'tr[data-i="{i}"] td').nth(j).click()
    got = page.evaluate(READ_JS, [sid, name])
    assert got is not None and got["kind"] == "terms", sid
    assert got["picked"] == 1
    return got


def redo(got: dict) -> tuple[float, float]:
    """The sum of the shares from the shown terms, and how far rounding may move it."""
    total, bound = 0.0, 0.0
    for share in got["shares"]:
        if share["kind"] == "dot":
            part = sum(num(t["a"]) * 10.0 ** t["pa"] * num(t["b"]) * 10.0 ** t["pb"]
                       for t in share["terms"]) * share["scale"]
            bound += sum((abs(num(t["a"])) + abs(num(t["b"]))) * HALF
                         * 10.0 ** (t["pa"] + t["pb"]) for t in share["terms"]) * share["scale"]
        else:
            assert share["kind"] == "copy"
            part = num(share["x"]) * 10.0 ** share["p"]
            bound += HALF * 10.0 ** share["p"]
        assert part == pytest.approx(share["value"], rel=1e-9, abs=1e-15)
        total += part
    return total, bound + HALF * 10.0 ** got["power"]


@pytest.mark.parametrize("sid, name, step, i, j, kinds", [
    # ∂L/∂LN(R) = ∂L/∂H·W₁ᵀ + ∂L/∂R: a dot product and a copy, summed
    ("grad.decoder.0.ln2.out", "grad.decoder.0.ln2.out", "decoder.0.ln2.out", 1, 3,
     ["dot", "copy"]),
    # ∂L/∂W₁ = Xᵀ·∂L/∂H: column i of X with column j of ∂L/∂H
    ("grad.decoder.0.ffn.pre", "grad.decoder.0.ffn.w_1", "decoder.0.ffn.w_1", 4, 3, ["dot"]),
    # ∂L/∂Q = ∂L/∂S·K/√d_k for one head, drawn × 10ⁿ
    ("grad.decoder.0.cross_attn.q", "grad.decoder.0.cross_attn.q.head.1",
     "decoder.0.cross_attn.q", 2, 1, ["dot"]),
    # ∂L/∂X = Σ_h ∂L/∂Q_h·(W^Q_h)ᵀ + ∂L/∂R: one dot product per head, and the residual's copy
    ("grad.decoder.0.ln1.out", "grad.decoder.0.ln1.out", "decoder.0.ln1.out", 2, 1,
     ["dot", "dot", "copy"]),
    # ∂L/∂V = Aᵀ·∂L/∂Z
    ("grad.encoder.0.self_attn.v", "grad.encoder.0.self_attn.v.head.0",
     "encoder.0.self_attn.v", 3, 0, ["dot"]),
    # through the joined heads: ∂L/∂Z⁽²⁾ at (i, j) is row i of ∂L/∂MHA with row 4 + j of W^O
    ("grad.decoder.0.cross_attn.z", "grad.decoder.0.cross_attn.z.head.1",
     "decoder.0.cross_attn.z", 1, 3, ["dot"]),
    # through the layer's output: ∂L/∂LN(R) = ∂L/∂Y = ∂L/∂logits·W_outᵀ
    ("grad.decoder.0.ln3.out", "grad.decoder.0.ln3.out", "decoder.0.ln3.out", 0, 5, ["dot"]),
    # the hand-off: ∂L/∂M = Σ_h ∂L/∂K_h·(W^K_h)ᵀ + Σ_h ∂L/∂V_h·(W^V_h)ᵀ
    ("grad.encoder.0.ln2.out", "grad.encoder.0.ln2.out", "encoder.0.ln2.out", 2, 3,
     ["dot"] * 4),
])
def test_a_gradient_cell_is_the_sum_of_its_shares_term_by_term(page, tape, sid, name, step, i,
                                                                j, kinds):
    got = click(page, sid, name, i, j)
    assert [s["kind"] for s in got["shares"]] == kinds, got["text"]
    total, bound = redo(got)
    shown = num(got["cell"]) * 10.0 ** got["power"]
    assert total == pytest.approx(got["value"] * 10.0 ** got["power"], rel=1e-9, abs=1e-15)
    assert abs(total - shown) <= bound, (sid, total, shown)
    g = np.asarray(tape.grads[step])
    true = g[1 if ".head.1" in name else 0, i, j] if g.ndim == 3 else g[i, j]
    assert abs(total - true) <= bound, (sid, total, true)
    assert all(len(s["terms"]) >= 4 for s in got["shares"] if s["kind"] == "dot")


SIGNS = ("- ", "−−", "− −", "- -", "+ -", "·-", "10^")  # a hyphen for a minus, a double minus


def written_out(got: dict) -> None:
    """Every number the readout writes has a true minus sign and powers as superscripts."""
    text = got["text"]
    assert not any(bad in text for bad in SIGNS), text
    assert not __import__("re").search(r"(^|[^\w])-\d", text), text


def softmax_adds_up(text: str) -> float:
    """``a·(g − c) = a·d = v``: each "=" recomputes from the numbers it writes (g and c to as
    many decimals as keep three digits of their difference d)."""
    import re

    n = r"\(?(−?[\d.]+)\)?"
    found = re.fullmatch(rf"{n}·\({n} − {n}\) = {n}·{n} = {n}", text)
    assert found, text
    a, g, c, a2, d, v = (num(x) for x in found.groups())
    decimals = len(found.group(2).split(".")[1])
    assert a == a2 and abs(g - c - d) <= 10.0 ** -decimals + abs(d) * 5e-3, text
    assert abs(a * d - v) <= abs(v) * 6e-3 + 1e-12, text
    return v


@pytest.mark.parametrize("sid, name, step", [
    ("grad.decoder.0.cross_attn.scores", "grad.decoder.0.cross_attn.scores.head.0",
     "decoder.0.cross_attn.scores"),
    ("grad.decoder.0.cross_attn.z", "grad.decoder.0.cross_attn.z.head.1", "decoder.0.cross_attn.z"),
    ("grad.encoder.0.ln2.out", "grad.encoder.0.ln2.out", "encoder.0.ln2.out"),
])
def test_every_cell_of_a_backward_matrix_recomputes_to_the_value_it_shows(page, tape, sid, name,
                                                                         step):
    g = np.asarray(tape.grads[step])
    head = 1 if name.endswith(".head.1") else 0
    matrix = g[head] if g.ndim == 3 else g
    for i in range(matrix.shape[0]):
        for j in range(matrix.shape[1]):
            got = click(page, sid, name, i, j)
            written_out(got)
            scale = 10.0 ** got["power"]
            for share in got["shares"]:
                if share["kind"] == "softmax":
                    v = softmax_adds_up(share["text"])
                    assert v == pytest.approx(share["value"], rel=6e-3, abs=1e-12)
            if all(s["kind"] in ("dot", "copy") for s in got["shares"]):
                total, _ = redo(got)
                assert total == pytest.approx(got["value"] * scale, rel=1e-9, abs=1e-15)
            # the readout's value is the cell the page shows, to its last digit
            # the readout's value is the cell the page shows, but for the rounding of its factors
            # (four digits each), and says "≈" only where that rounding shows
            off = abs(got["value"] - num(got["cell"]))
            assert off <= HALF + 1e-3 * abs(got["value"]) + 1e-9, (sid, i, j, got["text"])
            assert ("≈" in got["text"]) == (off > HALF + 1e-12), got["text"]
            assert abs(got["value"] * scale - matrix[i, j]) <= 2 * HALF * scale, (sid, i, j)
