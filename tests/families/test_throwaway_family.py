"""A family added from a folder of its own, with no edit anywhere in handformer: the command
line's walk, train, verify and exercises, its declared switch (a flag and a form field), and
the web app's request path pick it up through the registry alone.

The family (throwaway/bowfamily.py, a causal bag of words with one operation of its own) is
imported by a small driver before handformer's command line is built, as a user's plugin
would be; each command runs in a process of its own so that its registration ends with it.
The app's side runs in this process and takes the registration back out afterwards.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

FOLDER = Path(__file__).parent / "throwaway"
DRIVER = ("import sys; sys.path.insert(0, {folder!r}); import bowfamily; "
          "from handformer.cli import main; main(sys.argv[1:], prog_name='handformer')")


def handformer_with_bow(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    code = DRIVER.format(folder=str(FOLDER))
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.process
def test_walk_shows_the_new_familys_steps_with_its_own_switch(tmp_path):
    done = handformer_with_bow("walk", "--family", "bow", "--bow-scale", "2", "--format",
                               "json", "-o", "t.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    tape = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    steps = {s["name"]: np.array(s["value"], dtype=float) for s in tape["steps"]
             if s.get("value") is not None}
    x = steps["embed.tok"]
    by_hand = 2 * np.cumsum(x, axis=0) / np.arange(1, len(x) + 1)[:, None]
    assert np.allclose(steps["bow.mean"], by_hand, atol=1e-14, rtol=0)
    page = handformer_with_bow("walk", "--family", "bow", "--format", "markdown", cwd=tmp_path)
    assert page.returncode == 0, page.stderr
    assert "The running mean of the embeddings" in page.stdout
    assert r"\frac{s}{t + 1}" in page.stdout  # the family's own op's formula


@pytest.mark.process
def test_help_lists_the_declared_switch_and_other_families_refuse_it(tmp_path):
    help_text = handformer_with_bow("walk", "--help", cwd=tmp_path).stdout
    assert "--bow-scale" in help_text and "(--family bow)" in help_text
    refused = handformer_with_bow("walk", "--family", "gpt", "--bow-scale", "2", cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.strip() == ("error: the gpt family does not take --bow-scale (the "
                                      "bow family does: add --family bow)")


@pytest.mark.process
def test_train_runs_the_familys_own_training_and_the_loss_falls(tmp_path):
    done = handformer_with_bow("train", "--family", "bow", "--epochs", "4", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    losses = [float(line.rsplit(" ", 1)[1]) for line in done.stdout.splitlines()
              if line.startswith("bow step")]
    assert len(losses) == 4 and losses[-1] < losses[0]


@pytest.mark.process
def test_verify_compares_with_the_torch_version_written_beside_it(tmp_path):
    pytest.importorskip("torch")
    done = handformer_with_bow("verify", "--family", "bow", "--bow-scale", "0.5", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "PASS: 6 stages and gradients" in done.stdout


@pytest.mark.process
def test_exercises_ask_about_the_new_familys_numbers(tmp_path):
    done = handformer_with_bow("exercises", "--family", "bow", "--format", "json", "--count",
                               "3", "--kinds", "loss", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    sheet = json.loads(done.stdout)
    assert sheet["questions"], sheet


@pytest.fixture
def bow():
    """The family registered in this process for one test, then taken out again."""
    from handformer.engine.ops import OPS
    from handformer.families import registry

    sys.path.insert(0, str(FOLDER))
    try:
        import bowfamily
        yield bowfamily
    finally:
        sys.path.remove(str(FOLDER))
        sys.modules.pop("bowfamily", None)
        registry.FAMILIES.pop("bow", None)
        registry.EXTRA_OPTIONS.pop("bow", None)
        OPS.pop("bow_prefix_mean", None)


def test_the_apps_form_offers_the_family_and_its_switch(bow):
    from handformer.server import ui_text
    from handformer.server.limits import Limits
    from handformer.server.requests import app_families, parse_walk

    assert "bow" in app_families()
    assert [o["name"] for o in ui_text.family_options()["bow"]] == ["bow_scale"]
    walk = parse_walk({"family": "bow", "config": {"bow_scale": 3.0, "d_model": 2}}, Limits())
    tape = walk.tape()
    x = tape["embed.tok"]
    assert np.allclose(tape["bow.mean"][1], 3 * (x[0] + x[1]) / 2, atol=1e-14, rtol=0)
    assert math.isfinite(float(tape["loss"]))
