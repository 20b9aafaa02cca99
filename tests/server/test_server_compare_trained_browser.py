"""After training in the page, the comparison's B can be the trained model: A the same model
before training (its initial weights, on the pinned run's sentences) against trained B, the
loss change first; and the choice is in the address, so a reload shows the same comparison."""

from __future__ import annotations

import numpy as np

import handformer
from handformer.train import checkpoint, loop
from handformer.train.data import default_pairs

from . import test_server_browser as browser_page
from .test_server_browser import open_app

pytestmark = browser_page.pytestmark

TRAINED_OFFERED = "!document.querySelector('#f-cmp-b option[value=\"job\"]').disabled"
LOSS_SHOWN = "document.querySelector('#compare .cmp-loss') !== null"


def _loss(tape) -> float:
    return float(np.asarray(tape["loss"]).reshape(-1)[0])


def test_trained_as_b_shows_the_model_before_against_after_training(browser, app, tmp_path):
    page = open_app(browser, app)
    page.fill("#f-epochs", "20")
    page.click("#train")
    page.wait_for_function(TRAINED_OFFERED, timeout=60_000)
    with page.expect_request(lambda r: r.url.endswith("/api/compare")) as asked:
        page.select_option("#f-cmp-b", "job")
    body = asked.value.post_data_json
    assert body["job"] and body["a"]["src"] == "when you play the game of thrones"
    page.wait_for_function(LOSS_SHOWN)
    loss = page.locator("#compare .cmp-loss")
    a, b = float(loss.get_attribute("data-a")), float(loss.get_attribute("data-b"))
    assert b < a and "Δ −" in loss.inner_text(), loss.inner_text()
    # independently: A is the job's start made again (its config, options and seed on the
    # tutorial's pairs), B the job's model; each saved and walked here
    pair = {"src": body["a"]["src"], "tgt": body["a"]["tgt"]}
    run = app.server.config.app.state.jobs.models.get(body["job"]).run
    for name, model, value in (("first", loop.start(run.config, default_pairs(), run.options), a),
                               ("job", run, b)):
        checkpoint.save(tmp_path / name, loop.snapshot(model, ""))
        assert value == _loss(handformer.walk(checkpoint=str(tmp_path / name), **pair))
    assert page.get_attribute("#pin", "data-t") == "unpin"  # A was pinned for the comparison
    assert "before training" in page.inner_text("#pinned-what")
    assert "changed" in page.inner_text("#compare .cmp-summary")  # its changed steps listed
    # B's walkthrough is the trained model's too
    with page.expect_request(lambda r: r.url.endswith("/api/panels/changed")) as walked:
        page.click('[data-show-run="b"]')
    assert walked.value.post_data_json["job"] == body["job"]
    page.wait_for_function("location.search.includes('b=job') && location.search.includes('run=b')")
    page.reload()  # the same session: the address brings back the comparison
    page.wait_for_function(LOSS_SHOWN, timeout=30_000)
    assert float(page.get_attribute("#compare .cmp-loss", "data-b")) == b
    assert page.input_value("#f-cmp-b") == "job"
    page.click('[data-set-lang="zh"]')
    assert "损失 L：A" in page.inner_text("#compare .cmp-loss")
    assert page.inner_text('#f-cmp-b option[value="job"]') == "训练好的模型"
    assert "训练前" in page.inner_text("#pinned-what")
    assert page.errors == []
    page.context.close()
