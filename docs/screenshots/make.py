"""The pictures of README.md and README.zh-CN.md: the tutorial's walkthrough page (`handformer
walk --format html`) at 1280 × 800, at the encoder's attention scores, in English and in
Chinese, shot by Debian's Chromium (headless, through Playwright; no browser is downloaded).

Usage, from the checkout:  PYTHONPATH=src python docs/screenshots/make.py
Writes docs/screenshots/walk-en.png and walk-zh.png (256 colours: flat colours lose nothing).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

import handformer
from handformer.render import registry

HERE = Path(__file__).resolve().parent
STEP = "encoder.0.self_attn.head.0.scores"  # Q Kᵀ / √d_k: the heart of the walk, with D1
SIZE = {"width": 1280, "height": 800}


def shoot(page_file: Path, lang: str, browser) -> Path:
    """One screenshot of the page in ``lang``, scrolled to ``STEP``."""
    context = browser.new_context(viewport=SIZE)
    page = context.new_page()
    page.goto(page_file.as_uri())
    if lang != "en":
        page.click(f"[data-set-lang={lang}]")
        page.wait_for_timeout(300)  # the switch lays the page out again before it scrolls
    page.evaluate(f"document.getElementById('s-{STEP}').scrollIntoView()")
    page.wait_for_timeout(800)  # the header's counter and map follow the scroll
    shot = HERE / f"walk-{lang}.png"
    page.screenshot(path=str(shot))
    context.close()
    Image.open(shot).convert("RGB").quantize(256).save(shot, optimize=True)
    return shot


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        page_file = Path(folder) / "walk.html"
        page_file.write_text(registry.render(handformer.walk(), "html"), encoding="utf-8")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                        args=["--no-sandbox"])
            for lang in ("en", "zh"):
                print("wrote", shoot(page_file, lang, browser))
            browser.close()


if __name__ == "__main__":
    main()
