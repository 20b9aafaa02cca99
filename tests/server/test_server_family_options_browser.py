"""The form offers the switches the chosen family declares (families/<name>/options.py): the
decoder-only family's positions, RoPE's base and pairs, the norm's kind and the key/value
heads, with its presets (llama among them), in English and Chinese; the walk they ask for is the
engine's, number for number; another family's form holds none of them."""

from __future__ import annotations

import numpy as np
import pytest

from support.browser import CHROMIUM

from .test_server_browser import matrix, open_app

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]

SWITCHES = ["pos", "rope_base", "rope_pairs", "norm_kind", "kv_heads"]


def shown(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "els => els.filter(e => !e.hidden).map(e => e.value)")


def shows(page, tape, name: str, seconds: float = 30.0) -> None:
    """Wait until the page draws step ``name`` with the tape's numbers (3 decimals shown)."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        try:
            np.testing.assert_allclose(matrix(page, name), tape[name], atol=5e-4 + 1e-12)
            return
        except Exception:  # noqa: BLE001  (not drawn yet, or the earlier walk's numbers)
            if time.monotonic() > deadline:
                raise
            page.wait_for_timeout(200)


def test_the_decoder_only_familys_switches_walk_the_llama_recipe(browser, app):
    import handformer

    page = open_app(browser, app)
    assert page.locator("#family-options [name]").count() == 0  # the encoder-decoder's form
    assert "llama" not in shown(page, "#f-preset option")
    page.select_option("#f-family", "gpt")
    assert [page.get_attribute(f"#f-{n}", "name") for n in SWITCHES] == SWITCHES
    assert shown(page, "#f-preset option") == ["tutorial", "small", "llama"]
    assert page.inner_text('label[for="f-kv_heads"]') == "key/value heads"
    page.select_option("#f-preset", "llama")
    page.wait_for_selector('#panels [id="s-decoder.0.self_attn.rope.relative"]', state="attached")
    shows(page, handformer.walk(family="gpt", preset="llama"), "decoder.0.self_attn.head.0.q")
    page.select_option("#f-rope_pairs", "adjacent")
    page.fill("#f-kv_heads", "1")
    page.press("#f-kv_heads", "Enter")
    adjacent = handformer.walk(family="gpt", preset="llama", rope_pairs="adjacent", kv_heads=1)
    shows(page, adjacent, "decoder.0.self_attn.head.1.k")
    page.click('[data-set-lang="zh"]')
    assert page.inner_text('label[for="f-kv_heads"]') == "键值头数"
    assert "Hugging Face" in page.inner_text("#f-rope_pairs")  # a name, in both languages
    page.select_option("#f-family", "transformer")
    assert page.locator("#family-options [name]").count() == 0
    assert page.input_value("#f-preset") == "tutorial"
    assert page.errors == []
    page.context.close()
