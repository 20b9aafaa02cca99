"""One colour meaning (issue 9, item 4): the page's and the figures' mapping, checked against
WCAG's contrast formula written out here and against hand-computed limits."""

from __future__ import annotations

import re

import numpy as np

from handformer.narrate.document import Callout, Matrix, Section
from handformer.render.common import colour
from handformer.render.html import page as html


def wcag_ratio(hex_a: str, hex_b: str) -> float:
    """WCAG 2.x contrast ratio, from the definition (not from colour.py)."""
    def lum(h: str) -> float:
        chans = [int(h[k:k + 2], 16) / 255 for k in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in chans]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    a, b = sorted((lum(hex_a), lum(hex_b)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def palette() -> dict[str, tuple[str, str]]:
    """class -> (background, text colour) as the page's CSS says."""
    rules = re.findall(r"\.hf \.grid \.(\w+)[^{]*\{background:(#[0-9a-f]{6});color:(#[0-9a-f]{6})\}",
                       colour.palette_css())
    return {cls: (bg, ink) for cls, bg, ink in rules}


def test_reference_ratios():
    assert abs(wcag_ratio("#000000", "#ffffff") - 21.0) < 1e-9
    assert abs(colour.contrast((0, 0, 0), (255, 255, 255)) - 21.0) < 1e-9
    # white on the old #6192c2 was 3.3:1 (the figure)
    assert 3.2 < wcag_ratio("#ffffff", "#6192c2") < 3.4


def test_every_cell_text_has_contrast_at_least_4_5():
    rules = palette()
    assert len(rules) == 21 + 11  # n10…p10 and q0…q10
    worst = min(wcag_ratio(bg, ink) for bg, ink in rules.values())
    assert worst >= 4.5, worst


def test_probabilities_on_a_fixed_single_hue_scale():
    prob = colour.Scale("prob")
    # near-uniform cross-attention 0.09–0.19 stays pale: steps 1 and 2 of 10, not saturated
    assert colour.cell_class(0.09, prob) == "q1" and colour.cell_class(0.19, prob) == "q2"
    assert colour.cell_class(1.0, prob) == "q10" and colour.cell_class(0.0, prob) == "q0"
    m = Matrix("decoder.0.cross_attn.head.0.pattern", "A", np.full((2, 2), 0.5), kind="pattern")
    assert colour.kind_of(m) == "prob"
    # single hue: every prob step is a blend of the same two ends (no blue/red halves)
    fills = [colour.fill(k, "prob") for k in range(11)]
    assert all(a[0] >= b[0] and a[1] >= b[1] for a, b in zip(fills, fills[1:], strict=False))


def test_signed_limit_is_the_98th_percentile_and_clipped_cells_are_marked():
    values = np.arange(1.0, 101.0)  # |x| = 1 … 100: 98th percentile (linear) = 1 + 0.98·99
    assert abs(colour.signed_limit([values]) - 98.02) < 1e-9
    scale = colour.scale_for("signed", [values])
    assert colour.cell_class(100.0, scale) == "p10 c"
    assert colour.cell_class(-50.0, scale) == "n5"  # −50 / 98.02 ≈ −0.51 → step −5


def test_one_scale_per_group_and_per_erratum_pair():
    q = Matrix("q", "Q", np.array([[1.0, -2.0]]), scale_group="eq")
    s = Matrix("s", "S", np.array([[40.0, -8.0]]), scale_group="eq")
    scales = colour.shared_scales([q, s])
    assert scales[id(q)] == scales[id(s)]
    ours = Matrix("s", "S", np.full((2, 2), 8.2))
    theirs = Matrix("t", "S", np.full((2, 2), 24.7))
    paired = colour.shared_scales([ours], [(theirs, ours)])
    assert paired[id(ours)] == paired[id(theirs)]
    # ±8.2 against ±24.7 on one scale: 8.2 is a third of the way, not the full colour
    assert colour.level(8.2, paired[id(ours)]) == round(8.2 / 24.7 * 10)


def test_page_and_figure_colour_a_cell_alike():
    m = Matrix("x", "X", np.array([[-3.0, 0.5, 2.0]]))
    page = html.render_sections({"en": [Section("x", "1", "x", ["t"], equation=[m])]})
    classes = re.findall(r'<td class="([^"]+)">', page)
    scale = colour.scale_for("signed", [m.value])
    image = colour.figure_colours(np.asarray(m.value), scale)
    rules = palette()
    for j, cls in enumerate(classes):
        bg = rules[cls.split()[0]][0]
        assert bg == colour.hex_of(tuple(round(c * 255) for c in image[0, j]))


def test_erratum_pair_dropped_when_identical_to_the_precision():
    ours = Matrix("ln", "LN", np.array([[0.1234, 0.5]]))
    same = Callout("D5", "text", Matrix("t", "LN", np.array([[0.12341, 0.5]])), "⚠ differs")
    other = Callout("D1", "text", Matrix("t", "LN", np.array([[17.175, 0.5]])), "⚠ 17.175")
    page = html.render_sections({"en": [Section("a", "1", "a", ["t"], equation=[ours],
                                                callouts=[same, other])]})
    blocks = page.split('<details class="callout">')[1:]
    assert len(blocks) == 2
    assert 'class="compare"' not in blocks[0] and 'class="compare"' in blocks[1]
    summary = blocks[1].split("<summary>")[1].split("</summary>")[0]
    assert "17.175" in summary and summary.count("⚠") == 1  # one warning sign, not two


def test_figures_draw_with_the_pages_mapping_and_outline_the_worked_cell():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from handformer.narrate.document import Highlight
    from handformer.render.figure import draw_matrix

    m = Matrix("p", "P", np.array([[0.1, 0.9], [0.5, 0.0]]), scale="prob",
               highlight=Highlight(cell=(0, 1)))
    fig, ax = plt.subplots()
    draw_matrix(ax, m, 3)
    image = np.asarray(ax.images[0].get_array())
    rules = palette()
    for (i, j), cls in {(0, 0): "q1", (0, 1): "q9", (1, 0): "q5", (1, 1): "q0"}.items():
        assert colour.hex_of(tuple(round(c * 255) for c in image[i, j])) == rules[cls][0]
    outlined = [p for p in ax.patches if p.get_edgecolor()[:3] == (0.0, 0.0, 0.0)]
    assert len(outlined) == 1 and outlined[0].get_xy() == (0.5, -0.5)
    plt.close(fig)


def test_percentile_is_numpys_to_the_last_bit():
    """colour.percentile replaces np.percentile (whose np.unique imports numpy.ma): the same
    float for every size, scale and run of ties, so every cell keeps its colour step."""
    import math

    from handformer.render.common.colour import CLIP_PERCENTILE, percentile

    rng = np.random.default_rng(24)
    for n in [*range(1, 300), 1000, 4099]:
        for x in (rng.random(n), np.abs(rng.standard_cauchy(n)),
                  rng.integers(0, 4, n).astype(float), np.abs(rng.normal(size=n)) * 1e-300):
            for q in (CLIP_PERCENTILE, 50.0, 99.9):
                want = float(np.percentile(x, q))
                got = percentile(x.copy(), q)
                assert got == want and math.copysign(1, got) == math.copysign(1, want), (n, q)


def test_class_rows_of_a_block_are_each_cells_class():
    """The block-at-once colouring (numpy, the page's cells) against cell_class, cell by cell,
    on every scale: NaN and ±∞ uncoloured, clipped cells marked, halves rounded to even as
    round() rounds them, probabilities on 0 … 1."""
    block = np.array([[0.0, 0.05, 0.049999, 0.5, 0.95, 1.0, 1.5],
                      [-0.3, -2.0, float("nan"), float("inf"), -float("inf"), 2.0 * (1 + 1e-13),
                       -0.25]])
    for scale in (colour.Scale("prob"), colour.Scale("signed", 2.0), colour.Scale("ids")):
        assert colour.class_rows(block, scale) == [[colour.cell_class(x, scale) for x in row]
                                                   for row in block.tolist()]
    # by hand: 0.05 of a 0…1 scale is 0.5 of a step, rounded to even: step 0; 0.15 → 1.5 → 2;
    # -2.0 beyond a limit of 1.5 is n10, clipped
    assert colour.class_rows(np.array([[0.05, 0.15, 0.5]]), colour.Scale("prob")) == \
        [["q0", "q2", "q5"]]
    assert colour.class_rows(np.array([[-2.0]]), colour.Scale("signed", 1.5)) == [["n10 c"]]
