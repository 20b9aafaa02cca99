"""The walkthrough page shot in headless Chromium (issue 9 evidence), as small PNG files.
The page comes from the tree on PYTHONPATH.
Usage: PYTHONPATH=<tree>/src python docs/screenshots/shoot.py OUT_DIR"""
import sys
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

import handformer
from handformer.render import html

def small(path):
    """256 colours, optimised: a screenshot of flat colours loses nothing a reader sees."""
    Image.open(path).convert("RGB").quantize(256).save(path, optimize=True)


out = Path(sys.argv[1]).resolve()
out.mkdir(parents=True, exist_ok=True)
page_file = out / "page.html"
page_file.write_text(html.render(handformer.walk(backward=True)), encoding="utf-8")
SHOTS = [("overview", None, "en"), ("attention", "encoder.0.self_attn.head.0.scores", "en"),
         ("prediction", "generator.probs", "en"), ("backward", "grad.decoder.0.cross_attn.scores", "en"),
         ("zh-overview", None, "zh"), ("zh-attention", "encoder.0.self_attn.head.0.scores", "zh")]
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    for width, height in ((1280, 900), (375, 800)):
        for name, sid, lang in SHOTS:
            ctx = b.new_context(viewport={"width": width, "height": height})
            pg = ctx.new_page()
            pg.goto(page_file.as_uri())
            if lang != "en":
                pg.click(f"[data-set-lang={lang}]")
            if sid:
                pg.evaluate(f"document.getElementById('s-{sid}').scrollIntoView()")
            pg.wait_for_timeout(400)
            shot = out / f"{name}-{width}.png"
            pg.screenshot(path=str(shot))
            small(shot)
            ctx.close()
    b.close()
page_file.unlink()
print("ok", out)
