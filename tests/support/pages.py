"""Helpers for tests/hostile/test_pages.py: hostile tapes made from a real one, the CLI run as the
console script would run it (main(argv) in-process: what these cases test is the page, not the
process), a page opened in headless Chromium with its dialogs and console errors recorded.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
from pathlib import Path

from support.clirun import run_here

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]

# What a page must not hold once Chromium has parsed it: event handlers, javascript: URLs,
# style attributes, and any element in a formula that is not MathML (an <svg>, <img>, <b>).
DOM_REPORT = """() => {
  const math = 'http://www.w3.org/1998/Math/MathML';
  const handlers = [], js_urls = [], styled = [];
  for (const e of document.querySelectorAll('*')) {  // one pass over the page's elements
    let handler = false, js = false;
    for (const a of e.attributes) {
      handler = handler || a.name.toLowerCase().startsWith('on');
      js = js || /^\\s*javascript:/i.test(a.value);
    }
    if (handler) handlers.push(e.outerHTML.slice(0, 80));
    if (js) js_urls.push(e.outerHTML.slice(0, 80));
    if (e.hasAttribute('style')) styled.push(e.outerHTML.slice(0, 80));
  }
  return {
    handlers: handlers, js_urls: js_urls, styled: styled,
    foreign_in_math: Array.from(document.querySelectorAll('math *'))
               .filter(e => e.namespaceURI !== math).map(e => e.outerHTML.slice(0, 80)),
    scripts: document.querySelectorAll('script').length,
    math_text: Array.from(document.querySelectorAll('math')).map(m => m.textContent).join(' '),
    text: document.body ? document.body.innerText : '',
  };
}"""


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """handformer ARGS in ``cwd``; stdout and stderr as text."""
    done = run_here(*args, cwd=cwd, timeout=300)
    return subprocess.CompletedProcess(done.args, done.returncode,
                                       done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


def base_tape(folder: Path) -> dict:
    """A real tape: `walk --backward --format json`, read back as a dict."""
    done = run_cli("walk", "--backward", "--format", "json", "-o", "base.json", cwd=folder)
    assert done.returncode == 0, done.stderr
    return json.loads((folder / "base.json").read_text(encoding="utf-8"))


def write_tape(data: dict, path: Path) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def with_symbol(data: dict, payload: str, key: str = "out") -> dict:
    """Every step that names the symbol ``key`` gets the payload as that symbol."""
    out = copy.deepcopy(data)
    for step in out["steps"]:
        if key in step.get("symbols", {}):
            step["symbols"][key] = payload
    return out


def with_param_name(data: dict, old: str, new: str) -> dict:
    """A parameter renamed everywhere a tape names it (params, gradients, updates, inputs)."""
    out = copy.deepcopy(data)
    out["params"] = {new if k == old else k: v for k, v in out["params"].items()}
    out["updates"] = {new if k == old else k: v for k, v in out["updates"].items()}
    for grad in out["grads"]:
        grad["name"] = new if grad["name"] == old else grad["name"]
    for step in out["steps"]:
        step["inputs"] = [new if i == old else i for i in step["inputs"]]
    return out


def with_word(data: dict, old: str, new: str) -> dict:
    """A word replaced in the vocabulary, the sentences' tokens and the dataset."""
    out = copy.deepcopy(data)
    out["vocab"] = [new if w == old else w for w in out["vocab"]]
    for side in ("src", "tgt", "target"):
        out[side]["tokens"] = [new if w == old else w for w in out[side]["tokens"]]
    out["dataset"] = [re.sub(rf"\b{re.escape(old)}\b", new, line) for line in out["dataset"]]
    return out


def with_sentence(data: dict, sentence: str) -> dict:
    """A corpus sentence added to the tape's dataset."""
    out = copy.deepcopy(data)
    out["dataset"] = [*out["dataset"], sentence]
    return out


def open_page(browser, path: Path, wait_ms: int = 400):
    """The shared recording page (tests/conftest.py), given a moment for scripts to run."""
    from support.browser import open_page as recording_page

    page = recording_page(browser, path)
    page.wait_for_timeout(wait_ms)
    return page


def markdown_page(markdown: str, path: Path) -> Path:
    """The Markdown as a viewer with raw HTML enabled shows it (markdown-it, CommonMark with
    tables), written as an HTML file to open in Chromium."""
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown)
    path.write_text("<!DOCTYPE html><meta charset='utf-8'><body>" + body, encoding="utf-8")
    return path
