"""After training in the page, the comparison's B can be the trained model: random A (the run
as configured, pinned) against trained B, the loss change first; and the choice is in the
address, so a reload shows the same comparison."""

from __future__ import annotations

import numpy as np

import handformer
from handformer.train import checkpoint, loop

from . import test_server_browser as browser_page
from .test_server_browser import open_app

pytestmark = browser_page.pytestmark

TRAINED_OFFERED = "!document.querySelector('#f-cmp-b option[value=\"job\"]').disabled"
LOSS_SHOWN = "document.querySelector('#compare .cmp-loss') !== null"


def _loss(tape) -> float:
    return float(np.asarray(tape["loss"]).reshape(-1)[0])


def test_trained_as_b_shows_random_a_against_trained_b(browser, app, tmp_path):
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
    # independently: A is the tutorial's untrained model, B the job's model saved and walked
    pair = {"src": body["a"]["src"], "tgt": body["a"]["tgt"]}
    assert a == _loss(handformer.walk(**pair))
    path = tmp_path / "job.ckpt"
    checkpoint.save(path, loop.snapshot(app.server.config.app.state.jobs.models.get(body["job"]).run, ""))
    assert b == _loss(handformer.walk(checkpoint=str(path), **pair))
    assert page.get_attribute("#pin", "data-t") == "unpin"  # A was pinned for the comparison
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
    assert page.errors == []
    page.context.close()
