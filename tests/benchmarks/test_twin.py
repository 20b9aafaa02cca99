"""benchmarks/twin.py on a slice: the twins start equal, step alike, and learn."""

import importlib.util

import numpy as np
import pytest

from support.paths import ROOT

pytest.importorskip("torch")
pytest.importorskip("hsk_sentences_audio")
pytest.importorskip("sacrebleu")

TWIN = ROOT / "benchmarks" / "twin.py"
SLICE = ["--limit", "120", "--d-model", "16", "--heads", "2", "--d-ff", "32", "--layers", "1",
         "--batch-size", "8", "--dtype", "float64", "--dropout", "0", "--lr", "2.0",
         "--warmup", "20", "--epochs", "3"]


def load_twin():
    spec = importlib.util.spec_from_file_location("twin", TWIN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_twins_match_to_round_off_then_learn(capsys):
    twin = load_twin()
    _, hand, torch_twin = twin.twins(twin.options(SLICE))
    for name, value in hand.params.items():
        assert np.array_equal(value, torch_twin.params[name]), name  # one start
    first_h, first_t = twin.timed_epoch(hand), twin.timed_epoch(torch_twin)  # 12 Adam steps
    assert first_h["loss"] == pytest.approx(first_t["loss"], abs=1e-12)
    for name, value in hand.params.items():
        np.testing.assert_allclose(torch_twin.params[name], value, rtol=0, atol=1e-9,
                                   err_msg=name)
    table = twin.main(SLICE)
    out = capsys.readouterr().out
    assert "CC-BY-SA 4.0" in out and "hand tok/s" in out and "reference:" in out
    losses = [h["loss"] for h, _ in table]
    assert losses[-1] < losses[0]
    assert table[-1][0]["val_loss"] == pytest.approx(table[-1][1]["val_loss"], rel=1e-6)
