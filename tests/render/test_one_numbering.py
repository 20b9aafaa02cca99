"""One numbering (issue 19): every format numbers the panels 1, 2, 3 … in reading order, every
reference to a step ("← from", "goes to", "explained in", "Next") names a panel by that number,
and the seed tutorial's own steps appear only as "the tutorial's step N" where it has step N."""

from __future__ import annotations

import html as html_text
import re
from functools import lru_cache

import handformer
from handformer.narrate import build
from handformer.render import markdown
from handformer.render.html import page as html
from handformer.render.terminal import screen

# The seed tutorial (its Chinese text) numbers its steps 1 to 13: "步骤 1 — 定义数据集" …
# "步骤 13 — 计算预测单词". It has no loss, gradient or update step, and no "7b" or "12b".
TUTORIAL_STEPS = {str(k) for k in range(1, 14)}

PANEL = re.compile(r'<section class="panel[^"]*" id="([^"]+)"[^>]*>\s*<h2[^>]*><a class="num" '
                   r'href="#\1"[^>]*>(\d+)</a>')
TAGS = re.compile(r"<[^>]+>")


@lru_cache(maxsize=1)
def tape():
    return handformer.walk(backward=True)


@lru_cache(maxsize=2)
def page(lang: str) -> str:
    sections = {code: build(tape(), code) for code in ("en", "zh")}
    return html.render_sections(sections, 3, "t", lang)


def panel_numbers(text: str) -> dict[str, str]:
    found = dict(PANEL.findall(text))
    assert len(found) > 100  # the forward pass, the loss, every gradient and the update
    return found


def test_html_panels_are_numbered_one_to_n_in_reading_order():
    for lang in ("en", "zh"):
        numbers = [n for _, n in PANEL.findall(page(lang))]
        assert numbers == [str(k) for k in range(1, len(numbers) + 1)]


def test_every_linked_reference_on_the_page_names_the_number_of_the_panel_it_links_to():
    for lang in ("en", "zh"):
        text = page(lang)
        numbers = panel_numbers(text)
        # "← from step N" under a matrix, in both languages
        froms = re.findall(r'<a class="from" href="#([^"]+)">(.*?)</a>', text)
        assert len(froms) > 40
        for target, label in froms:
            said = set(re.findall(r"\d+", TAGS.sub("", label)))
            assert said == {numbers[target]}, (target, label)
        # "Reads:", "Goes to:" and "(Explained in …)": a link with the panel's number in it
        links = re.findall(r'<a href="#([^"]+)"><span class="num">(\d+)</span>', text)
        told = re.findall(r'<p class="told">(.*?)</p>', text)
        assert len(links) > 150 and len(told) > 10
        for target, number in links:
            assert numbers[target] == number, (target, number)


def plain_text(text: str) -> str:
    """The page's words: no tags, no formulas (MathML), no scripts or styles."""
    for tag in ("script", "style", "math", "svg"):
        text = re.sub(rf"<{tag}\b.*?</{tag}>", " ", text, flags=re.S)
    return html_text.unescape(TAGS.sub(" ", text.replace("<wbr>", "")))


def test_a_step_named_in_words_is_a_link_or_the_tutorials_own_step_that_it_has():
    text = page("en")
    words = plain_text(re.sub(r"<a [^>]*href=\"#.*?</a>", " ", text, flags=re.S))
    tutorial = re.findall(r"tutorial's step (\w+)", words)
    assert tutorial and set(tutorial) <= TUTORIAL_STEPS
    # nowhere a claim of a tutorial step beyond 13 or with a letter ("7b", "12b")
    assert not re.search(r"tutorial's steps? (1[4-9]|\d+[a-z])\b", words)
    assert not re.findall(r"(?<!tutorial's )\b[Ss]tep \d+", words)
    said = re.findall(r"教程第\s*(\w+?)\s*步", words)
    assert said and set(said) <= TUTORIAL_STEPS
    assert not re.findall(r"(?<!教程)第\s*\w+?\s*步", words)  # nor "第 12b 步", "第五步"


def test_the_terminal_names_each_step_by_its_panel_number_and_title():
    for lang, step in (("en", r"Step (\d+) · "), ("zh", r"第 (\d+) 步 · ")):
        sections = build(tape(), lang)
        text = screen.render_text(sections, 3, 100)
        headings = {}
        for line in text.splitlines():
            found = re.match(rf"^{step}(.*?) ─+$", line)
            if found:
                headings[found.group(1)] = found.group(2)
        assert list(headings) == [str(k) for k in range(1, len(headings) + 1)]
        flat = re.sub(r"\s*\n\s*", " ", text)
        refs = re.findall(rf"(?:Next: |← |; |“|接下来：|讲解见“|← ){step}(.{{12}})", flat)
        assert len(refs) > 100
        for number, title in refs:  # a wrapped line may have put a space in a Chinese title
            assert number in headings, number
            said, heading = (re.sub(r"\s", "", t) for t in (title, headings[number]))
            assert heading.startswith(said.rstrip("…”.。）)")[:6]), (number, title)
        assert not re.search(r"第\s*\d+[a-z]\s*步", text)


def test_markdown_links_name_the_number_of_the_heading_they_lead_to():
    for lang in ("en", "zh"):
        text = markdown.render_sections(build(tape(), lang), 3, lang)
        anchors = dict(re.findall(r'<a id="([^"]+)"></a>\n## (\d+) · ', text))
        links = re.findall(r"\[(?:Step |第 )(\d+)(?: 步)? · [^\]]*\]\(#([^)]+)\)", text)
        assert len(links) > 100
        for number, anchor in links:
            assert anchors.get(anchor) == number, (number, anchor)
        assert not re.search(r"^`[^`]*`$", text, re.M)  # no code chip under a heading
