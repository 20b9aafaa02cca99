"""A walk of a trained decoder-only checkpoint speaks of trained weights (issue 46): its
embedding numbers were learned (not "start random"), its training is counted in Adam steps as
`train --family gpt` says it (never "epochs" in one place and "steps" in another), and the page's
header names its one text without a source → target arrow."""

from __future__ import annotations

import pytest

from handformer import narrate, pipeline
from handformer.render.html import page
from support.clirun import run_here


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gpt")
    path = folder / "gpt.ckpt"
    result = run_here("train", "--family", "gpt", "--save", path, cwd=folder)
    assert result.returncode == 0, result.stderr
    assert b"400 Adam steps" in result.stdout + result.stderr
    return pipeline.run({"family": "gpt", "checkpoint": str(path)}).tape


def test_the_trained_walk_says_learned_and_adam_steps_in_both_languages(trained):
    en = " ".join(p for s in narrate.build(trained, "en") for p in s.paragraphs)
    assert "start random" not in en and "These numbers were learned" in en
    assert "400 Adam steps" in en and "400 epochs" not in en
    zh = " ".join(p for s in narrate.build(trained, "zh") for p in s.paragraphs)
    assert "这些数是学出来的" in zh and "训练了 400 步" in zh


def test_a_one_text_models_header_has_no_arrow(trained):
    text = " ".join(t for t in trained.meta["target"]["tokens"] if t != "<end>")
    assert page.page_title(trained.meta) == f"handformer · {text}"
