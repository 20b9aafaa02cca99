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
    rotated = '#panels figure.mx[data-name="decoder.0.self_attn.head.0.q"]'
    page.wait_for_selector('#panels [data-name="decoder.0.self_attn.q_rot"]', state="attached")
    tape = handformer.walk(family="gpt", preset="llama")
    page.wait_for_selector(rotated, state="attached")
    np.testing.assert_allclose(matrix(page, "decoder.0.self_attn.head.0.q"),
                               tape["decoder.0.self_attn.head.0.q"], atol=5e-4 + 1e-12)
    page.select_option("#f-rope_pairs", "adjacent")
    page.fill("#f-kv_heads", "1")
    page.press("#f-kv_heads", "Enter")
    adjacent = handformer.walk(family="gpt", preset="llama", rope_pairs="adjacent", kv_heads=1)
    page.wait_for_function(
        "() => { const t = document.querySelector('#panels figure.mx[data-name=\"decoder.0.self_attn.k\"] tbody');"
        " return t && t.rows.length > 0 && t.rows[0].querySelectorAll('td').length === 2; }")
    np.testing.assert_allclose(matrix(page, "decoder.0.self_attn.head.1.q"),
                               adjacent["decoder.0.self_attn.head.1.q"], atol=5e-4 + 1e-12)
    page.click('[data-set-lang="zh"]')
    assert page.inner_text('label[for="f-kv_heads"]') == "键值头数"
    assert "Hugging Face" in page.inner_text("#f-rope_pairs")  # a name, in both languages
    page.select_option("#f-family", "transformer")
    assert page.locator("#family-options [name]").count() == 0
    assert page.input_value("#f-preset") == "tutorial"
    assert page.errors == []
    page.context.close()
