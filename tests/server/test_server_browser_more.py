"""The page's compare changes (one weight, training steps), corpus upload, localised errors; the
form as a sheet on a phone; a hovered score lighting where it comes from and goes."""

from __future__ import annotations

import numpy as np

from handformer.families.transformer.config import preset
from handformer.families.transformer.run import run_forward, setup

from . import test_server_browser as browser_page
from .test_server_browser import matrix, open_app, reveal

pytestmark = browser_page.pytestmark  # Chromium only, as the page's other tests


# The comparison's first changed part, once there is one: the box is emptied while a new
# comparison is on its way, so an absent summary means "not yet", not an error.
SUMMARY_STEP_IS = """step => {
  const summary = document.querySelector('#compare .cmp-summary');
  return summary !== null && summary.dataset.step === step;
}"""

def test_pin_then_edit_one_weight_then_train_one_step(browser, app):
    page = open_app(browser, app)
    page.click("#pin")
    summary = page.locator("#compare .cmp-summary")
    summary.wait_for(state="visible")
    page.wait_for_selector('#param-names option[value="decoder.0.cross_attn.w_k"]', state="attached")
    page.fill("#f-edit\\.param", "decoder.0.cross_attn.w_k")
    page.fill("#f-edit\\.index", "1, 2")
    page.fill("#f-edit\\.value", "0.75")
    page.dispatch_event("#f-edit\\.value", "change")
    page.wait_for_function(SUMMARY_STEP_IS, arg="decoder.0.cross_attn.k")
    page.fill("#f-edit\\.param", "")
    page.fill("#f-train_steps", "1")
    page.dispatch_event("#f-train_steps", "change")
    page.wait_for_function(SUMMARY_STEP_IS, arg="src_embed.tok")
    page.fill("#f-train_steps", "999")
    page.dispatch_event("#f-train_steps", "change")
    error = page.locator('.field-error[data-for="train_steps"]')
    error.wait_for(state="visible")
    assert "train_steps" in error.inner_text()
    assert page.errors == []
    page.context.close()


CORPUS = "the dragon flies\nthe dragon sleeps\nwinter comes\n"


def test_upload_a_corpus_file_and_the_walk_uses_it(browser, app):
    page = open_app(browser, app)
    page.set_input_files("#f-corpus-file", files=[
        {"name": "dragons.txt", "mimeType": "text/plain", "buffer": CORPUS.encode()}])
    page.wait_for_function("document.querySelector('#f-corpus').value.includes('dragon')")
    reveal(page, "encoder.0.self_attn.head.0.scores")  # in view: updated with each edit
    page.fill("#f-src", "the dragon sleeps")
    page.fill("#f-tgt", "winter comes")
    scores = '#panels figure.mx[data-name="encoder.0.self_attn.head.0.scores"] tbody'
    page.wait_for_function(f"document.querySelector('{scores}').rows.length === 3")
    s = setup(preset("tutorial"), dataset=CORPUS.splitlines())
    tape = run_forward(s, "the dragon sleeps", "winter comes")
    name = "encoder.0.self_attn.head.0.scores"
    np.testing.assert_allclose(matrix(page, name), tape[name], atol=5e-4 + 1e-12)
    assert page.locator('.field-error[data-for="corpus"]').is_hidden()
    assert page.errors == []
    page.context.close()


def test_a_file_over_the_corpus_limit_is_refused_in_the_chosen_language(browser, app):
    page = open_app(browser, app)
    page.click('[data-set-lang="zh"]')
    before = page.input_value("#f-corpus")
    big = ("word " * 20_000).encode()  # 100 000 characters, over the 64 KiB-character limit
    page.set_input_files("#f-corpus-file", files=[
        {"name": "big.txt", "mimeType": "text/plain", "buffer": big}])
    error = page.locator('.field-error[data-for="corpus"]')
    error.wait_for(state="visible")
    assert error.inner_text() == f"文件 big.txt 太大（{len(big)}）；语料最多 65536 个字符。"
    assert page.input_value("#f-corpus") == before
    page.context.close()


def test_in_chinese_an_odd_d_model_is_explained_in_chinese_by_its_field(browser, app):
    page = open_app(browser, app)
    page.click('[data-set-lang="zh"]')
    page.fill("#f-d_model", "7")
    error = page.locator('.field-error[data-for="config.d_model"]')
    error.wait_for(state="visible")
    said = error.inner_text()
    assert said.startswith("d_model 7 是奇数：位置编码按 sin/cos 成对填列")
    assert "例如 8" in said
    assert error.locator("small.detail").count() == 0  # said once, the English on hover
    assert "d_model 7 is odd" in error.get_attribute("title")
    assert page.get_attribute("#f-d_model", "aria-invalid") == "true"
    page.click('[data-set-lang="en"]')  # the same refusal, said again in English
    page.wait_for_function("document.querySelector('.field-error[data-for=\"config.d_model\"]')"
                           ".textContent.startsWith('d_model 7 is odd: the positional')")
    assert page.errors == []
    page.context.close()


def test_choose_the_decoder_only_family_and_the_papers_switches(browser, app):
    """The family select walks the GPT-style model (its numbers the engine's), says what the
    training below is, and pre-norm is one select away."""
    import handformer

    page = open_app(browser, app)
    page.select_option("#f-family", "gpt")
    scores = '#panels figure.mx[data-name="decoder.0.self_attn.head.0.scores"] tbody'
    reveal(page, "decoder.0.self_attn.head.0.scores")  # a new panel: a stub till it comes near
    page.wait_for_function(f"document.querySelector('{scores}') && "
                           f"document.querySelector('{scores}').rows.length === 13")
    assert page.locator("#family-note").is_visible() and page.locator("#train").is_disabled()
    tape = handformer.walk(family="gpt")
    name = "decoder.0.self_attn.head.0.scores"
    np.testing.assert_allclose(matrix(page, name), tape[name], atol=5e-4 + 1e-12)
    page.select_option("#f-norm", "post")
    post = handformer.walk(family="gpt", norm="post")
    reveal(page, "decoder.0.ln1.resid")
    np.testing.assert_allclose(matrix(page, "decoder.0.ln1.resid"), post["decoder.0.ln1.resid"],
                               atol=5e-4 + 1e-12)
    page.select_option("#f-family", "transformer")
    reveal(page, "encoder.0.ln1.resid")
    assert page.locator("#family-note").is_hidden() and page.locator("#train").is_enabled()
    assert page.errors == []
    page.context.close()


def test_on_a_phone_an_edit_with_the_form_open_shows_a_panel_it_changed_and_the_status(browser, app):
    """At 375 px the open form is a sheet under the header (it was 2,376 px of page: an edit
    changed panels far below it); after an edit a panel it changed is in sight below the sheet,
    and the status says the page is ready."""
    page = open_app(browser, app, width=375)
    page.click("#form-bar")
    page.wait_for_function("document.getElementById('status').textContent !== ''")
    assert page.eval_on_selector(".side", "s => s.getBoundingClientRect().height") <= 0.5 * 900
    page.evaluate("document.querySelectorAll('#panels section.panel').forEach(s => { s.hfOld = true; })")
    page.fill("#f-src", "the true enemy")
    page.press("#f-src", "Enter")
    page.wait_for_function("document.getElementById('panels').getAttribute('aria-busy') === 'false'"
                           " && Array.from(document.querySelectorAll('#panels section.panel')).some(s => !s.hfOld)")
    sight = page.evaluate("""() => {
      const below = document.querySelector('.side').getBoundingClientRect().bottom;
      const changed = Array.from(document.querySelectorAll('#panels section.panel')).filter(s => !s.hfOld);
      const seen = changed.filter(s => { const r = s.getBoundingClientRect();
                                         return r.bottom > below + 40 && r.top < innerHeight - 40; });
      const status = document.getElementById('status'), r = status.getBoundingClientRect();
      return {changed: changed.length, seen: seen.map(s => s.dataset.id), status: status.textContent,
              statusShown: r.width > 0 && r.top >= 0 && r.bottom <= innerHeight};
    }""")
    assert sight["changed"] > 0 and sight["seen"], sight
    assert sight["status"] == "ready" and sight["statusShown"], sight
    assert page.errors == []
    page.context.close()


def test_hovering_a_score_lights_the_query_and_key_rows_it_comes_from_and_the_weight_it_feeds(browser, app):
    """S[i][j] = q_i · k_j / √d_k: hovering S[1][2] lights row 1 of Q and row 2 of K wherever
    they are drawn (the Q and K panels, and beside S as Q and Kᵀ), and A[1][2] = softmax(S[1])[2]
    downstream."""
    page = open_app(browser, app)
    prefix = "encoder.0.self_attn.head.0."
    for step in ("q", "k", "pattern", "scores"):  # each brought into view and up to date
        reveal(page, prefix + step)
    page.hover(f'#panels section.panel[data-id="{prefix}scores"] figure.mx[data-name="{prefix}scores"]'
               ' tbody tr[data-i="1"] td:nth-of-type(3)')  # column j = 2 (the third number)
    lit = page.evaluate("""prefix => {
      const where = (cls, step) => Array.from(document.querySelectorAll(
          '#panels figure.mx[data-name="' + prefix + step + '"] td.' + cls)).map(td => {
        const t = td.closest('table');
        return [td.closest('tr').dataset.i, t.tHead.rows[0].cells[td.cellIndex].dataset.j]; });
      return {q: where('hf-from', 'q'), k: where('hf-from', 'k'), pattern: where('hf-to', 'pattern'),
              qFigures: document.querySelectorAll('#panels figure.mx[data-name="' + prefix + 'q"]').length,
              d_k: document.querySelector('#panels figure.mx[data-name="' + prefix + 'q"] thead')
                     .querySelectorAll('th[data-j]').length};
    }""", prefix)
    d_k, copies = lit["d_k"], lit["qFigures"]
    assert d_k == 4 and copies >= 2  # the tutorial's d_k; Q drawn in its panel and beside S
    assert sorted(lit["q"]) == sorted([["1", str(c)] for c in range(d_k)] * copies), lit
    # row 2 of K in its panel; column 2 of Kᵀ beside S (drawn transposed)
    assert {tuple(c) for c in lit["k"]} == ({("2", str(c)) for c in range(d_k)}
                                            | {(str(c), "2") for c in range(d_k)}), lit
    assert {tuple(c) for c in lit["pattern"]} == {("1", "2")}, lit
    page.mouse.move(0, 0)  # away: nothing lit
    assert page.evaluate("document.querySelectorAll('#panels td.hf-from, #panels td.hf-to').length") == 0
    assert page.errors == []
    page.context.close()


def test_the_next_token_control_redraws_the_sampling_panels(browser, app):
    """For a family that generates: ticked, the walk writes one token after its text; the
    temperature and top-k set there are the ones its sampling panels work with."""
    page = open_app(browser, app)
    assert page.locator("#sample-box").is_hidden()  # the encoder-decoder writes none
    page.select_option("#f-family", "gpt")
    page.locator("#sample-box").wait_for(state="visible")
    page.check("#f-sample")
    page.fill("#f-temperature", "0.5")
    page.fill("#f-top_k", "3")
    page.press("#f-top_k", "Enter")
    page.wait_for_function("document.querySelector('#panels section.panel[data-id=\"gen.0.sample.sorted\"]')")
    reveal(page, "gen.0.sample.scaled")
    scaled = page.inner_text('#panels section.panel[data-id="gen.0.sample.scaled"]')
    assert "temperature T = 0.5 and" in scaled.replace("\xa0", " ")
    reveal(page, "gen.0.sample.sorted")
    assert "Top-k keeps the first 3" in page.inner_text('#panels section.panel[data-id="gen.0.sample.sorted"]')
    assert page.errors == []
    page.context.close()


LIT_JS = """([cls, name]) => Array.from(document.querySelectorAll(
    '#panels figure.mx[data-name="' + name + '"]')).map(fig => Array.from(fig.querySelectorAll('td.' + cls))
    .map(td => [Number(td.closest('tr').dataset.i),
                Number(td.closest('table').tHead.rows[0].cells[td.cellIndex].dataset.j)]).sort())"""


def test_hovering_any_cell_lights_what_its_equation_made_it_from_and_what_it_feeds(browser, app):
    """Beyond attention heads, from the equations: R = X + Attn(X) makes R[1][2] of X[1][2] and
    Attn(X)[1][2], and the layer norm of row 1 uses all of it; H = N·W₁ + b₁ makes H[2][3] of
    row 2 of N, column 3 of W₁ and b₁[3]."""
    page = open_app(browser, app)
    resid, x, attn, norm = ("encoder.0.ln1.resid", "src_embed.out", "encoder.0.self_attn.out",
                            "encoder.0.ln1.out")
    for step in (x, attn, norm, resid):
        reveal(page, step)
    page.hover(f'#panels section.panel[data-id="{resid}"] figure.mx[data-name="{resid}"]'
               ' tbody tr[data-i="1"] td:nth-of-type(3)')
    d = 6  # the tutorial's d_model
    for name in (x, attn):  # every drawing of each: its own panel's and the sum's
        lit = page.evaluate(LIT_JS, ["hf-from", name])
        assert len(lit) >= 2 and all(cells == [[1, 2]] for cells in lit), (name, lit)
    lit = page.evaluate(LIT_JS, ["hf-to", norm])
    assert lit and all(cells == [[1, j] for j in range(d)] for cells in lit), lit
    assert page.evaluate(LIT_JS, ["hf-to", x]) == [[]] * len(page.evaluate(LIT_JS, ["hf-to", x]))

    pre, w, b = "encoder.0.ffn.pre", "encoder.0.ffn.w_1", "encoder.0.ffn.b_1"
    reveal(page, pre)
    page.hover(f'#panels section.panel[data-id="{pre}"] figure.mx[data-name="{pre}"]'
               ' tbody tr[data-i="2"] td:nth-of-type(4)')
    rows = page.evaluate(LIT_JS, ["hf-from", norm])
    assert rows and all(cells == [[2, j] for j in range(d)] for cells in rows), rows
    cols = page.evaluate(LIT_JS, ["hf-from", w])
    assert cols and all(cells == [[i, 3] for i in range(d)] for cells in cols), cols
    assert page.evaluate(LIT_JS, ["hf-from", b]) == [[[0, 3]]]
    assert page.evaluate(LIT_JS, ["hf-from", resid]) == [[]] * len(page.evaluate(LIT_JS, ["hf-from", resid]))
    page.mouse.move(0, 0)
    assert page.evaluate("document.querySelectorAll('#panels td.hf-from, #panels td.hf-to').length") == 0
    assert page.errors == []
    page.context.close()
