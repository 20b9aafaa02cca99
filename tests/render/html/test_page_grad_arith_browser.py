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
    x: s.dataset.x, p: +(s.dataset.p || 0),
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
