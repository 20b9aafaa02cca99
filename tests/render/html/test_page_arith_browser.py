"""A clicked cell shows its arithmetic (issue 19, part 5), in headless Chromium: the terms shown
are the numbers the page draws, and redoing the sum from them gives the cell (to the page's
rounding); the narration's worked cell goes dark once the reader picks one."""

from __future__ import annotations

import math

import pytest

import handformer
from handformer.render.html import page as html
from support.browser import CHROMIUM, open_page

pytestmark = [pytest.mark.browser, pytest.mark.slow,
              pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")]

HALF = 0.0005  # half the last shown digit: how far a shown number may be from the true one

READ_JS = r"""([sid, k, i, j]) => {
  const panel = document.getElementById('s-' + sid);
  const figs = Array.from(panel.querySelectorAll(':scope > .equation > .term > figure.mx'));
  const cellOf = (fig, r, c) => {
    const tr = fig.querySelector(`tr[data-i="${r}"]`);
    const heads = Array.from(fig.querySelector('thead tr').cells);
    const at = heads.findIndex(th => th.getAttribute('data-j') === String(c));
    return tr && at > 0 ? (tr.cells[at].dataset.full || tr.cells[at].textContent) : null;
  };
  const box = panel.querySelector('.arith');
  if (!box) return null;
  const attrs = {};
  for (const a of box.attributes) attrs[a.name.replace('data-', '')] = a.value;
  return {attrs, text: box.textContent, cell: cellOf(figs[k], i, j),
          terms: Array.from(box.querySelectorAll('.t')).map(t => ({a: t.dataset.a, b: t.dataset.b, x: t.dataset.x})),
          row: figs.length > 1 ? Array.from(figs[0].querySelectorAll(`tr[data-i="${i}"] td`)).map(td => td.textContent) : [],
          lit: panel.querySelectorAll('td.hc, td.hr, td.hk').length,
          picked: panel.querySelectorAll('td.pick').length};
}"""


def num(text: str) -> float:
    text = text.strip().replace("\u2212", "-")
    return -math.inf if text in ("-∞", "-inf") else float(text)


@pytest.fixture(scope="module")
def page(browser, tmp_path_factory):
    path = tmp_path_factory.mktemp("arith") / "b.html"
    path.write_text(html.render(handformer.walk(backward=True)), encoding="utf-8")
    p = open_page(browser, path)  # page errors and console errors recorded
    yield p
    p.context.close()


def click(page, sid: str, k: int, i: int, j: int) -> dict:
    fig = page.locator(f'section[id="s-{sid}"] > .equation > .term > figure.mx').nth(k)
    fig.locator(f'tr[data-i="{i}"] td').nth(j).click()
    got = page.evaluate(READ_JS, [sid, k, i, j])
    assert got is not None, sid
    assert got["picked"] == 1 and got["lit"] == 0, sid  # only the reader's cell is lit
    return got


@pytest.mark.parametrize("sid,k,i,j", [
    ("encoder.0.self_attn.head.0.q", 2, 2, 3),  # X · W_Q
    ("decoder.0.cross_attn.head.1.scores", 2, 4, 5),  # Q · Kᵀ ÷ √d_k
    ("encoder.0.self_attn.head.0.z", 2, 3, 1),  # A · V
    ("generator.logits", 3, 1, 4),  # Y · W_out + b
    ("encoder.0.ffn.pre", 3, 0, 2),  # X · W_1 + b_1
])
def test_a_product_cell_is_its_dot_product_term_by_term(page, sid, k, i, j):
    got = click(page, sid, k, i, j)
    assert got["attrs"]["kind"] == "matmul"
    terms = got["terms"]
    # the left factors are the numbers the page draws in row i of the first matrix
    assert [t["a"] for t in terms] == got["row"]
    total = sum(num(t["a"]) * num(t["b"]) for t in terms)
    bound = sum(abs(num(t["a"])) + abs(num(t["b"])) for t in terms) * HALF + HALF
    if "div" in got["attrs"]:
        total, bound = total / math.sqrt(float(got["attrs"]["div"])), bound / math.sqrt(
            float(got["attrs"]["div"]))
    if "bias" in got["attrs"]:
        total, bound = total + num(got["attrs"]["bias"]), bound + HALF
    assert total == pytest.approx(float(got["attrs"]["value"]), abs=1e-9)
    assert abs(total - num(got["cell"])) <= bound, (sid, total, got["cell"])


@pytest.mark.parametrize("sid,k,i,j", [
    ("encoder.0.self_attn.head.0.pattern", 1, 1, 2),
    ("decoder.0.self_attn.head.1.pattern", 1, 3, 2),  # a masked row: −∞ terms give 0
    ("generator.probs", 0, 0, 6),  # the probabilities from the logits of the step before
])
def test_a_softmax_cell_is_its_exponential_over_the_rows_sum(page, sid, k, i, j):
    got = click(page, sid, k, i, j)
    xs = [num(t["x"]) for t in got["terms"]]
    top = max(xs)
    p = math.exp(num(got["attrs"]["x"]) - top) / sum(math.exp(x - top) for x in xs)
    assert p == pytest.approx(float(got["attrs"]["value"]), abs=1e-9)
    assert abs(p - num(got["cell"])) <= 2 * HALF * len(xs) * p + HALF


def test_a_layer_norm_cell_is_centred_scaled_and_shifted(page):
    got = click(page, "decoder.0.ln2.out", 2, 3, 4)
    a = got["attrs"]
    y = (num(a["x"]) - num(a["mu"])) / num(a["sd"]) * num(a["gamma"]) + num(a["beta"])
    assert y == pytest.approx(float(a["value"]), abs=1e-9)
    assert abs(y - num(got["cell"])) <= 2 * HALF / num(a["sd"]) + 2 * HALF


def test_the_loss_cell_is_minus_the_log_of_its_probability(page):
    got = click(page, "loss", 0, 2, 1)
    p = num(got["attrs"]["p"])
    assert -math.log(p) == pytest.approx(float(got["attrs"]["value"]), abs=1e-9)
    assert abs(-math.log(p) - num(got["cell"])) <= HALF / p + HALF
    losses = [num(t["x"]) for t in got["terms"]]
    assert len(losses) == 6
    assert f"{sum(losses) / 6:.3f}" in got["text"]  # L, the mean over the positions


def test_sums_and_updates_redo_their_cell(page):
    got = click(page, "encoder.0.ln1.resid", 2, 0, 1)
    t = got["terms"][0]
    assert abs(num(t["a"]) + num(t["b"]) - num(got["cell"])) <= 3 * HALF
    got = click(page, "update.decoder.0.ffn.w_1", 2, 1, 3)
    t, eta = got["terms"][0], float(got["attrs"]["eta"])
    assert abs(num(t["a"]) - eta * num(t["b"]) - num(got["cell"])) <= 3 * HALF
    assert page.errors == []
