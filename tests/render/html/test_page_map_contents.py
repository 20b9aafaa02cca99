"""The lesson page's structure (issue 9, page half), without a browser: map, nested contents,
links between steps, kept columns, operators kept with their matrices, concat by head."""

from __future__ import annotations

import re

import numpy as np

import handformer
from handformer.narrate import build
from handformer.narrate.document import Architecture, Block, Matrix, Section
from handformer.render.html import page as html
from handformer.render.html.svg_flow import flow_svg
from handformer.render.html.svg_map import block_of, label_lines
from support.lesson import enrich


def tutorial_page() -> tuple[list[Section], str]:
    tape = handformer.walk()
    en, zh = enrich(build(tape, "en")), enrich(build(tape, "zh"))
    return en, html.render_sections({"en": en, "zh": zh}, 3, "t")


def test_overview_diagram_links_every_block_to_its_step_and_the_map_knows_each_panel():
    sections, page = tutorial_page()
    arch = sections[0].architecture
    blocks = re.findall(r'<a href="#s-([^"]+)"><g class="blk[^"]*" data-block="([^"]+)"', page)
    ids = {s.id for s in sections}
    assert blocks and all(target in ids for target, _ in blocks)
    # the cross-attention block links to the first cross-attention step
    assert ("decoder.0.cross_attn", "decoder.0.cross_attn") in blocks
    assert block_of(arch, "decoder.0.cross_attn.head.1.scores") == "decoder.0.cross_attn"
    # every panel lights a box: the text the input, a gradient or an update its block, the
    # loss the prediction
    assert block_of(arch, "dataset", "text") == "src_embed"
    assert block_of(arch, "grad.decoder.0.ffn.pre", "backward") == "decoder.0.ffn"
    assert block_of(arch, "update.generator.w", "update") == "generator"
    assert block_of(arch, "loss", "loss") == "prediction"
    assert 'id="map"' in page and 'data-block="decoder.0.cross_attn"' in page


def test_panels_numbered_one_to_n_without_repeats_or_jumps():
    sections, page = tutorial_page()
    numbers = re.findall(r'<h2[^>]*><a class="num" href="#[^"]+" title="[^"]*">(\d+)</a>', page)
    assert numbers == [str(k) for k in range(1, len(sections) + 1)]


def test_contents_nest_stack_layer_sublayer_head_with_the_distinguishing_part_first():
    _, page = tutorial_page()
    toc = page.split('<nav id="toc">')[1].split("</nav>")[0]
    # Encoder > Layer 1 > Self-attention > Head 1 > "Queries ...", each group label followed by
    # its translation (the zh span, <wbr> between its words) and nothing else
    zh = r'</span>(?:<span class="l-zh" lang="zh-CN">(?:[^<]|<wbr>)*</span>)?</summary>'
    path = re.search(rf"Encoder{zh}.*?Layer 1{zh}.*?Self-attention{zh}.*?Head 1{zh}.*?Queries",
                     toc, re.S)
    assert path
    # "Add & norm: layer normalization" under the group "Add & norm 1" (the layer's first) reads
    # "layer normalization"
    assert re.search(rf"Add &amp; norm 1{zh}<ol>\s*<li>.*?>Add: the residual", toc, re.S)
    assert ">Layer normalization (encoder layer 1)<" in toc
    # a title that only starts with the group's word keeps it ("Feed-forward network: ...")
    assert ">Feed-forward network: the linear layer (encoder layer 1)<" in toc


def test_inputs_link_to_the_step_that_made_them_and_steps_say_where_they_go():
    sections, page = tutorial_page()
    seq = {s.id: k for k, s in enumerate(sections, 1)}
    panel = page.split('id="s-encoder.0.self_attn.head.0.scores"')[1].split("</section>")[0]
    assert '<a class="from" href="#s-encoder.0.self_attn.head.0.q">' in panel
    assert f"from step {seq['encoder.0.self_attn.head.0.q']}" in panel
    reads, feeds = panel.split('<nav class="flow">')[1].split('class="feeds"')
    assert 'href="#s-encoder.0.self_attn.head.0.k"' in reads
    assert 'href="#s-encoder.0.self_attn.head.0.pattern"' in feeds  # the scores go to softmax
    assert 'href="#s-encoder.0.self_attn.head.0.k"' not in feeds
    q = page.split('id="s-encoder.0.self_attn.head.0.q"')[1].split("</section>")[0]
    feeds = q.split('<nav class="flow">')[1].split('class="feeds"')[1]
    assert 'href="#s-encoder.0.self_attn.head.0.scores"' in feeds


def without_the_new_fields(sections: list[Section]) -> list[Section]:
    """The sections as a narrator that knows nothing of issue 9 would build them."""
    for s in sections:
        s.architecture, s.reads, s.feeds, s.place = None, [], [], ()
        for m in s.equation:
            if isinstance(m, Matrix):
                m.source, m.highlight, m.keep_rows, m.keep_cols = "", None, (), ()
    return sections


def test_page_degrades_gracefully_without_the_new_fields():
    sections = without_the_new_fields(build(handformer.walk(), "en"))
    page = html.render_sections({"en": sections})
    assert 'id="map"' not in page and 'class="flow"' not in page
    assert '<a class="from"' not in page and "svg class=\"arch" not in page


def test_kept_columns_are_never_elided_and_elision_says_what_it_hid():
    m = Matrix("wide", "W", np.arange(80.0).reshape(2, 40), keep_cols=(20, 39))
    page = html.render_sections({"en": [Section("w", "1", "w", ["t"], equation=[m])]})
    heads = re.findall(r'<th data-j="(\d+)"', page)
    assert heads == [*map(str, range(8)), "20", "38", "39"]
    assert page.count('<th class="gap">⋯</th>') == 2  # 8 … 20 … 38
    assert "29 columns not shown" in page and "0 rows" not in page  # 40 − 11 shown


def test_an_operator_stays_with_the_matrix_after_it():
    a, b, c = (Matrix(n, n, np.ones((2, 2))) for n in "abc")
    page = html.render_sections({"en": [Section("s", "1", "s", ["t"],
                                                  equation=[a, r"\cdot", b, "=", c])]})
    terms = re.findall(r'<span class="term">(.*?)</span>\n', page, re.S)
    starts = [re.findall(r'class="op"|data-name="(\w)"', t) for t in terms]
    assert [[x for x in t if x] for t in starts] == [["a"], ["b"], ["c"]]
    assert all(t.strip().startswith('<span class="op">') for t in terms[1:])


def test_concat_columns_tinted_by_head():
    concat = Matrix("decoder.0.self_attn.concat", "C", np.ones((2, 8)), col_groups=(4, 4))
    page = html.render_sections({"en": [Section("c", "1", "c", ["t"], equation=[concat])]})
    heads = re.findall(r'<th data-j="(\d)"(?: class="([^"]+)")?>', page)
    assert [cls for _, cls in heads] == ["h0"] * 4 + ["h1 gs"] + ["h1"] * 3
    assert len(re.findall(r'<td class="[^"]*\bgs\b', page)) == 2  # one per row, at column 4


def test_architecture_svg_is_empty_without_an_architecture_and_escapes_labels():
    assert flow_svg(None, "en") == ""
    arch = Architecture([Block("x", "<b>", "embed", "x.1")])
    svg = flow_svg(arch, "en")
    assert "&lt;b&gt;" in svg and "<b>" not in svg and 'href="#s-x.1"' in svg


def test_where_a_step_goes_is_told_once_with_the_pages_own_numbers():
    """The narration's "Next: Step 7 · …" uses the tutorial's numbers (the terminal's headings);
    on the page the flow nav says it with links and the page's numbers (13), so the sentence goes."""
    sections, page = tutorial_page()
    seq = {s.id: k for k, s in enumerate(sections, 1)}
    panel = page.split('id="s-encoder.0.self_attn.head.0.scores"')[1].split("</section>")[0]
    narration = "".join(re.findall(r'<div class="l-\w+ narration"[^>]*>(.*?)</div>', panel, re.S))
    assert "Every query is compared" in narration
    assert "Next:" not in narration and "接下来" not in narration
    feeds = panel.split('class="feeds"')[1]
    pattern = seq["encoder.0.self_attn.head.0.pattern"]
    assert f'href="#s-encoder.0.self_attn.head.0.pattern"><span class="num">{pattern}</span>' in feeds


def test_diagram_and_map_are_drawn_in_each_language():
    _, page = tutorial_page()
    for where in ('<div id="map"', 'id="s-overview"'):
        part = page.split(where)[1].split("</section>")[0]
        zh = part.split('<div class="l-zh" lang="zh-CN">')[1].split("</svg>")[0]
        en = part.split('<div class="l-en" lang="en">')[1].split("</svg>")[0]
        assert "交叉注意力" in zh and "Cross-attention" not in zh, where
        assert "Cross-attention" in en and "交叉注意力" not in en, where


def test_a_chinese_label_is_cut_between_characters_never_before_closing_punctuation():
    five = 5 * 7.2 * 1.7 + 1  # room for five CJK characters of the diagram's face, not six
    assert label_lines("一二三四五六七", five) == ["一二三四五", "六七"]
    assert label_lines("一二三四五，六", five) == ["一二三四", "五，六"]  # "，" may not open a line
    assert label_lines("Add & norm", 200) == ["Add & norm"]
