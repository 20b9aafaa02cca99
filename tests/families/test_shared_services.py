"""The shared services reach a family only through its registry entry: the training loop on
sentence pairs calls the ``pairs`` bindings of the family ``registry.for_pairs`` finds (a
registered one before the built-in ones), and `handformer verify` runs a family's
``verify_report`` (its own table, its exit status) or refuses --reference by name."""

import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.families import registry
from handformer.families.transformer.config import preset
from handformer.train import loop
from handformer.train.data import default_pairs
from handformer.train.options import Options


def toy_family(name: str, **fields) -> registry.Family:
    def nothing(*args, **kwargs):
        raise AssertionError("the walk is not used here")

    return registry.Family(name, dict, nothing, nothing, nothing, prepare=nothing, walk=nothing,
                           **fields)


class CountingPairs:
    """The encoder-decoder's own bindings, each call counted by name."""

    def __init__(self):
        self.own, self.calls = registry.get("transformer").pairs, []

    def __getattr__(self, name):
        def counted(*args, **kwargs):
            self.calls.append(name)
            return getattr(self.own, name)(*args, **kwargs)

        return counted


def test_the_built_in_family_that_learns_from_pairs_is_the_encoder_decoder():
    assert registry.for_pairs().name == "transformer"
    assert registry.get("gpt").pairs is None and registry.get("bert").pairs is None


def test_the_training_loop_calls_the_bindings_of_the_registered_pairs_family(monkeypatch):
    counting = CountingPairs()
    toy = toy_family("pairtoy", pairs=counting)
    monkeypatch.setitem(registry.FAMILIES, "pairtoy", toy)
    assert registry.for_pairs() is toy
    run = loop.start(preset("tutorial"), default_pairs(), Options(epochs=1, batch_size=2))
    stats = loop.train_epoch(run)
    # 3 pairs in batches of 2: two steps, each one batch_loss; the weights made once
    assert counting.calls == ["first_params", "batch_loss", "batch_loss"]
    assert stats["epoch"] == 1


@pytest.mark.parametrize("agreed, status", [(True, 0), (False, 1)])
def test_verify_runs_a_familys_own_report_and_exits_by_it(monkeypatch, agreed, status):
    seen = []

    def report(options, tol):
        seen.append((options["reference"], tol))
        return agreed

    monkeypatch.setitem(registry.FAMILIES, "reporttoy", toy_family("reporttoy",
                                                                    verify_report=report))
    result = CliRunner().invoke(main, ["verify", "--family", "reporttoy", "--reference", "nn",
                                       "--tol", "0.5"])
    assert result.exit_code == status, result.output
    assert seen == [("nn", 0.5)]


def test_reference_is_refused_by_name_for_a_family_with_one_torch_model(monkeypatch):
    monkeypatch.setitem(registry.FAMILIES, "rowstoy",
                        toy_family("rowstoy", verify=lambda options: ("t", [("x", (1,), 0.0)])))
    result = CliRunner().invoke(main, ["verify", "--family", "rowstoy", "--reference", "nn"])
    assert result.exit_code == 2
    assert "the rowstoy family has one" in result.output
    assert "Traceback" not in result.output
