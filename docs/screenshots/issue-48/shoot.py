"""SmolLM2's walk page shot in headless Chromium (issue 48 evidence): English and Chinese, 1280 and
375 px. Usage: PYTHONPATH=<tree>/src python docs/screenshots/issue-48/shoot.py OUT_DIR"""
import sys
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

from handformer.families.gpt import pretrained
from handformer.commands.walk import rendered

out = Path(sys.argv[1]).resolve()
model = pretrained.prepare({"pretrained": "smollm2-135m"})
tape = pretrained.walk(model, {"src": "when you play the game of thrones you"})
page = out / "page.html"
page.write_text(rendered(tape, fmt="html", output=str(page)), encoding="utf-8")
SHOTS = [("overview", None, "en"), ("tokens", "ids", "en"), ("blocks", "decoder.1-29.elided", "en"),
         ("next", "generator.logits", "en"), ("quant", "quantized", "en"),
         ("zh-overview", None, "zh"), ("zh-blocks", "decoder.1-29.elided", "zh")]
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    for width, height in ((1280, 900), (375, 800)):
        for name, sid, lang in SHOTS:
            ctx = b.new_context(viewport={"width": width, "height": height})
            pg = ctx.new_page()
            pg.goto(page.as_uri())
            if lang != "en":
                pg.click(f"[data-set-lang={lang}]")
            if sid:
                pg.evaluate(f"document.getElementById('s-{sid}').scrollIntoView()")
            pg.wait_for_timeout(500)
            shot = out / f"{name}-{width}.png"
            pg.screenshot(path=str(shot))
            Image.open(shot).convert("RGB").quantize(256).save(shot, optimize=True)
            ctx.close()
    b.close()
print("page", page.stat().st_size)
page.unlink()
