"""The backward pass taught like the forward pass (issue 19): every gradient and update panel has
its own worked cell whose arithmetic, redone here from the matrices of the JSON tape with the
chain rule written out by hand (not the engine's backward functions), gives the numbers the
text prints; the page lights the map at the block each of them is about; no code chip."""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache

import numpy as np

import handformer
from handformer.files.tape_json import dumps
from handformer.narrate import build
from handformer.render.html import page as html

SUPERSCRIPT = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:×10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?")


def number(text: str) -> float:
    mantissa, _, power = text.partition("×10")
    return float(mantissa) * 10.0 ** int(power.translate(SUPERSCRIPT) or 0)


def close(printed: str, x: float) -> bool:
    """``printed`` is ``x`` as the page rounds it (3 decimals, or 3 significant digits)."""
    return math.isclose(number(printed), x, rel_tol=6e-3, abs_tol=5.1e-4 if "×" not in printed else 0)


@lru_cache(maxsize=2)
def tape(norm: str = "post"):
    """The tutorial's walk; with ``norm="pre"`` pre-norm with a final norm per stack, where a
    layer norm reads the residual stream (its panels' worked cells go through it)."""
    return handformer.walk(backward=True, norm=norm, final_norm=norm == "pre")


@lru_cache(maxsize=2)
def saved(norm: str = "post") -> dict:
    """The JSON tape as arrays: forward values, gradients, parameters, updates."""
    data = json.loads(dumps(tape(norm)))
    arrays = {s["name"]: np.array(s["value"], dtype=float) for s in data["steps"]}
    arrays |= {k: np.array(v, dtype=float) for k, v in data["params"].items()}
    grads = {g["name"]: np.array(g["value"], dtype=float) for g in data["grads"]}
    return {"x": arrays, "g": grads, "steps": data["steps"], "data": data}


def readers(name: str, norm: str = "post") -> list[dict]:
    s = saved(norm)
    return [u for u in s["steps"] if name in u["inputs"] and not u.get("view")
            and u["name"] in s["g"]]


def through(name: str, at: tuple, norm: str = "post") -> list[tuple[dict, int, tuple]]:
    """The steps that read ``name`` at ``at``, each with the input it reads and the entry there;
    a step that only hands the value on (a layer's output; the heads joined side by side,
    head h's column j becoming column h·d_v + j) is looked through to the steps reading it."""
    found = []
    for use in readers(name, norm):
        if use["op"] == "identity":
            found += through(use["name"], at, norm)
        elif use["op"] == "merge_heads":
            h, i, j = at
            width = saved(norm)["x"][name].shape[-1]
            found += through(use["name"], (i, h * width + j), norm)
        else:
            found.append((use, use["inputs"].index(name), at))
    return found


def share(use: dict, k: int, at: tuple, norm: str = "post") -> float:
    """What ``use`` sends back to its k-th input at entry ``at``, by the chain rule by hand."""
    x, g = saved(norm)["x"], saved(norm)["g"][use["name"]]
    args = [x[i] for i in use["inputs"]]
    op = use["op"]
    if op in ("add", "identity"):
        return g[at]
    if op == "relu":
        return g[at] if args[0][at] > 0 else 0.0
    if op == "mask":
        return g[at] if np.isfinite(x[use["name"]][at]) else 0.0
    if op == "merge_heads":
        h, i, j = at
        return g[i, h * args[0].shape[-1] + j]
    if op == "softmax":
        a, (h, i, j) = x[use["name"]], at
        return a[h, i, j] * (g[h, i, j] - float(a[h, i] @ g[h, i]))
    if op == "cross_entropy":
        t, w = at
        z = args[0][t]
        p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
        target = saved()["data"]["target"]["ids"][t]
        return (p[w] - (w == target)) / len(saved()["data"]["target"]["ids"])
    if op == "linear":
        i, j = at
        return float(g[i] @ args[1][j] if k == 0 else args[0][:, i] @ g[:, j])
    if op == "head_proj":
        i, j = at
        return float(sum(g[h, i] @ args[1][j, h * g.shape[-1]:(h + 1) * g.shape[-1]]
                         for h in range(g.shape[0])))
    if op == "scores":
        h, r, c = at
        q, key = args
        root = math.sqrt(q.shape[-1])
        return float((g[h, r] @ key[h, :, c] if k == 0 else g[h, :, r] @ q[h, :, c]) / root)
    if op == "attend":
        h, r, c = at
        a, v = args
        return float(g[h, r] @ v[h, c] if k == 0 else a[h, :, r] @ g[h, :, c])
    if op == "layer_norm":  # y = γ x̂ + β, x̂ = (x − μ)/s: ∂x̂_m/∂x_j = (δ_mj − 1/d − x̂_m x̂_j/d)/s
        (i, j), row, gamma = at, args[0][at[0]], args[1]
        eps = saved(norm)["data"]["config"]["ln_eps"]
        s = math.sqrt(row.var() + eps)
        xhat, d = (row - row.mean()) / s, len(row)
        return float(sum(g[i, m] * gamma[m] * ((m == j) - 1 / d - xhat[m] * xhat[j] / d) / s
                         for m in range(d)))
    raise AssertionError(f"no hand rule for {op}")


def worked_cell(section) -> tuple[int, ...]:
    """The entry a panel works out: its marked cell, with the head of a gradient by head."""
    for m in section.equation:
        if getattr(m, "highlight", None) is not None and m.highlight.cell is not None:
            head = re.search(r"\.head\.(\d+)$", m.name)
            return ((int(head.group(1)),) if head else ()) + tuple(m.highlight.cell)
    raise AssertionError(f"{section.id} marks no worked cell")


def check_worked_cells(norm: str) -> None:
    sections = [s for s in build(tape(norm), "en") if s.phase == "backward"]
    assert len(sections) > 30
    for s in sections:
        name, at = s.steps[0], worked_cell(s)
        text = next((p for p in s.paragraphs if p.startswith("Worked out for one cell")), None)
        assert text, f"{s.id} has no worked cell"
        expected = [share(u, k, there, norm) for u, k, there in through(name, at, norm)]
        pieces = text.split(". In all: ")
        printed = [NUMBER.findall(part)[-1] for part in pieces[0].split("; plus ")]
        assert len(printed) == len(expected), (s.id, text)
        for said, value in zip(printed, expected, strict=True):
            assert close(said, value), (s.id, said, value)
        total = sum(expected)
        assert close(NUMBER.findall(pieces[1])[0], total), (s.id, pieces[1], total)
        assert math.isclose(total, saved(norm)["g"][name][at], rel_tol=1e-9, abs_tol=1e-12)


def test_every_gradient_panel_works_out_its_marked_cell_with_numbers_redone_by_hand():
    check_worked_cells("post")


def test_pre_norm_panels_read_by_a_layer_norm_work_out_their_cell_through_it():
    check_worked_cells("pre")
    norms = [u for u in readers("src_embed.out", "pre") if u["op"] == "layer_norm"]
    assert [u["name"] for u in norms] == ["encoder.0.ln1.out"]


def test_every_update_panel_works_out_theta_minus_eta_g_at_its_marked_entry():
    sections = [s for s in build(tape(), "en") if s.phase == "update"]
    lr = saved()["data"]["update"]["lr"]
    assert len(sections) > 20
    for s in sections:
        param = s.id.removeprefix("update.")
        u = {k: np.array(v, dtype=float) for k, v in saved()["data"]["updates"][param].items()}
        text = next(p for p in s.paragraphs if "·(" in p)
        before, rate, g, after = NUMBER.findall(text.split(": ", 1)[1])[:4]
        k = int(np.argmax(np.abs(u["grad"])))
        at = np.unravel_index(k, u["grad"].shape)
        assert close(before, u["before"][at]) and close(g, u["grad"][at]), (s.id, text)
        assert float(rate) == lr and close(after, u["before"][at] - lr * u["grad"][at])
        symbols = [m.symbol.split("\\ (")[0] for m in s.equation if hasattr(m, "symbol")]
        assert symbols == [r"\theta", "g", r"\theta'"]  # θ − η·g = θ′, with η between
        assert str(lr) in s.equation


def test_small_gradients_are_printed_with_their_digits_not_as_zero():
    text = " ".join(p for s in build(tape(), "en") if s.id == "grad.encoder.0.self_attn.q"
                    for p in s.paragraphs)
    largest = float(np.abs(saved()["g"]["encoder.0.self_attn.q"]).max())
    assert largest < 5e-4  # the encoder's queries barely move the loss here
    assert "×10⁻" in text and "largest entry is 0.000" not in text


def test_the_page_lights_a_block_for_every_loss_gradient_and_update_panel_without_code_chips():
    sections = {code: build(tape(), code) for code in ("en", "zh")}
    text = html.render_sections(sections, 3, "t", "en")
    panels = re.findall(r'<section class="panel phase-(loss|backward|update)[^"]*" id="([^"]+)"'
                        r'[^>]*data-block="([^"]*)"', text)
    assert len(panels) > 60
    assert all(block for _, _, block in panels), [p for p in panels if not p[2]]
    blocks = dict((pid, block) for _, pid, block in panels)
    assert blocks["s-grad.decoder.0.cross_attn.scores"] == "decoder.0.cross_attn"
    assert blocks["s-update.decoder.0.ffn.w_1"] == "decoder.0.ffn"
    assert "<code>grad." not in text and 'class="step-name"><code>' not in text
    titles = re.findall(r'<span class="l-en title" lang="en">([^<]*)</span>', text)
    assert not [t for t in titles if re.search(r"\w\.\d\.\w|_embed|Update: ", t)]


def test_every_weight_gradient_is_worked_for_its_marked_entry_as_x_transposed_times_g():
    """∂L/∂W = Xᵀ·∂L/∂Y (issue 46): the panel of Y works ∂L/∂W at its largest entry (r, c), redone
    here from the JSON tape: column r of X times column c of ∂L/∂Y (a projection into heads:
    head c // d_k's column c mod d_k), the sum the value the tape's ∂L/∂W holds."""
    s = saved()
    worked = 0
    for section in (x for x in build(tape(), "en") if x.phase == "backward"):
        text = next((p for p in section.paragraphs if p.startswith("The weight's gradient")), None)
        step = s["steps"][[t["name"] for t in s["steps"]].index(section.steps[0])]
        if step["op"] not in ("linear", "head_proj"):
            assert text is None, section.id
            continue
        w = step["inputs"][1]
        cell = next(m.highlight.cell for m in section.equation
                    if getattr(m, "name", "") == f"grad.{w}" and m.highlight is not None)
        x, g = s["x"][step["inputs"][0]], s["g"][step["name"]]
        r, c = cell
        column = g[:, c] if g.ndim == 2 else g[c // g.shape[-1], :, c % g.shape[-1]]
        value = float(x[:, r] @ column)
        assert math.isclose(value, s["g"][w][r, c], rel_tol=1e-9)
        assert int(np.argmax(np.abs(s["g"][w]))) == r * s["g"][w].shape[1] + c
        assert close(NUMBER.findall(text.split(" = ")[-1])[0], value), (section.id, text)
        worked += 1
    assert worked >= 10
