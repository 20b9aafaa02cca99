"""Presets as the tutorial and the paper give them, overrides, and validation messages."""

import dataclasses

import pytest

from handformer.cli import config_from_options
from handformer.errors import ConfigError, HandformerError
from handformer.families.transformer.config import Config, preset


def test_tutorial_preset_is_the_tutorials_toy():
    c = preset("tutorial")
    assert (c.d_model, c.heads, c.decoder_heads, c.d_k, c.d_v) == (6, 1, 2, 4, 4)
    assert (c.encoder_layers, c.decoder_layers, c.ffn, c.d_ff) == (1, 1, "single", 6)
    assert (c.attn_bias, c.scale_embeddings, c.final_norm, c.init) == (False, False, False,
                                                                        "uniform")
    assert c.dropout == 0.0 and c.ln_eps == 1e-5


def test_paper_preset_is_the_base_model():
    c = preset("paper")
    assert (c.d_model, c.heads, c.d_k, c.d_v, c.d_ff) == (512, 8, 64, 64, 2048)
    assert (c.encoder_layers, c.decoder_layers) == (6, 6)
    assert (c.ffn, c.attn_bias, c.scale_embeddings, c.final_norm) == ("paper", True, True, True)
    assert (c.dropout, c.label_smoothing) == (0.1, 0.1)


def test_small_preset_has_the_papers_architecture():
    c = preset("small")
    assert c.d_model % c.heads == 0 and c.d_k == c.d_model // c.heads
    assert (c.ffn, c.attn_bias, c.scale_embeddings, c.final_norm) == ("paper", True, True, True)


def test_d_k_may_differ_from_d_model_over_heads():
    c = preset("small", d_k=5)
    assert (c.d_model, c.heads, c.d_k, c.d_v) == (32, 4, 5, 5)
    assert preset("small", d_k=5, d_v=3).d_v == 3


def test_d_k_follows_d_model_and_heads_unless_given():
    assert preset("small", d_model=48).d_k == 12
    assert preset("small", heads=8).d_k == 4
    assert preset("small", heads=8).decoder_heads == 8
    assert preset("small", heads=8, decoder_heads=2).decoder_heads == 2
    assert preset("tutorial", d_model=8).d_k == 4  # the tutorial's d_k stays 4


def test_layers_sets_both_stacks_unless_one_is_given():
    c = preset("small", layers=3)
    assert (c.encoder_layers, c.decoder_layers) == (3, 3)
    c = preset("small", layers=3, decoder_layers=1)
    assert (c.encoder_layers, c.decoder_layers) == (3, 1)


def test_single_ffn_has_width_d_model():
    assert preset("small", ffn="single").d_ff == 32
    assert preset("tutorial", d_model=8).d_ff == 8


def test_a_given_d_ff_that_a_single_ffn_cannot_have_is_refused():
    with pytest.raises(ConfigError) as err:
        preset("small", ffn="single", d_ff=100)
    assert "d_ff must equal d_model 32, got d_ff 100" in str(err.value)
    with pytest.raises(ConfigError, match="got d_ff 100"):
        preset("tutorial", d_ff=100)
    assert preset("small", ffn="single", d_ff=32).d_ff == 32


def test_library_errors_name_values_not_flags():
    with pytest.raises(ConfigError) as err:
        preset("small", heads=3)
    assert "give d_k explicitly" in str(err.value) and "--" not in str(err.value)


def test_none_overrides_are_ignored():
    assert preset("small", d_model=None, heads=None) == preset("small")


def test_cli_options_become_a_config():
    options = {"preset": "small", "d_model": 16, "heads": 2, "layers": 1, "final_norm": False,
               "d_k": None, "seed": 4, "src": "kept"}
    c = config_from_options(options)
    assert (c.d_model, c.heads, c.d_k, c.encoder_layers, c.final_norm, c.seed) == (
        16, 2, 8, 1, False, 4)
    assert options == {"src": "kept"}


def test_config_is_frozen_and_round_trips_through_a_dict():
    c = preset("small", seed=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.d_model = 8
    assert Config.from_dict(c.to_dict()) == c
    assert "extra" not in c.to_dict()


def test_unknown_fields_and_presets_are_refused():
    with pytest.raises(ConfigError, match="colour"):
        Config.from_dict({"d_model": 8, "colour": "red"})
    with pytest.raises(ConfigError, match="tutorial, small, paper"):
        preset("large")


@pytest.mark.parametrize("fields,words", [
    (dict(d_model=10, heads=3), ["d_model 10", "heads 3", "[1, 2, 5, 10]"]),
    (dict(d_model=9, heads=3), ["d_model 9 is odd", "10"]),
    (dict(d_model=8, heads=2, d_ff=0), ["d_ff", "0"]),
    (dict(d_model=8, heads=2, encoder_layers=0), ["0 encoder"]),
    (dict(d_model=8, heads=2, max_len=0), ["max_len"]),
])
def test_invalid_combinations(fields, words):
    with pytest.raises(ConfigError) as err:
        Config(**fields)
    assert isinstance(err.value, HandformerError)
    for w in words:
        assert w in str(err.value)


# --- the encoder-decoder's config is its family's, its flags its declarations (issue 42) -------


def test_the_declared_sizes_are_the_configs_fields_with_their_types():
    """families/transformer/options.py declares what config.py defines: each field of Config
    (but its preset's name), in its order, with its type (read from the dataclass), and the
    --layers shorthand setting both stacks; the presets by the same names."""
    import typing

    from handformer.families.transformer import config, options

    hints = typing.get_type_hints(Config)
    fields = [f.name for f in dataclasses.fields(Config) if f.name != "preset"]
    declared = [o for o in options.SIZES if not o.sets]
    assert [o.name for o in declared] == fields
    for option in declared:
        kind = hints[option.name]
        kind = next((a for a in typing.get_args(kind) if a is not type(None)), kind)
        assert option.kind is kind, option.name
    (layers,) = [o for o in options.SIZES if o.sets]
    assert set(layers.sets) <= set(fields) and layers.name not in fields
    assert list(options.PRESETS) == list(config.PRESETS)


def test_the_public_config_and_preset_are_the_default_familys():
    import handformer
    from handformer.families import registry

    assert handformer.Config is registry.get(registry.DEFAULT).config is Config
    assert handformer.preset("small", heads=2) == preset("small", heads=2)
    assert handformer.preset("small", heads=2).d_k == 32 // 2  # d_model / heads
    with pytest.raises(ConfigError, match="unknown preset 'large'"):
        handformer.preset("large")
    with pytest.raises(AttributeError, match="Konfig"):
        handformer.Konfig  # noqa: B018


def test_every_declared_size_is_a_flag_of_walk_with_its_help_line():
    """The command line's model flags are made from the declarations (cli.py writes none):
    each one's flag and help in `walk --help`, a bool as --name/--no-name, and a value the
    config refuses is refused naming the field."""
    from click.testing import CliRunner

    from handformer.cli import main
    from handformer.families.transformer import options

    shown = " ".join(CliRunner().invoke(main, ["walk", "--help"], terminal_width=1000)
                     .output.split())
    for option in options.SIZES:
        flag = f"{option.flag} / --no-{option.flag[2:]}" if option.kind is bool else option.flag
        assert flag in shown and " ".join(option.help.split()) in shown, option.name
    refused = CliRunner().invoke(main, ["walk", "--dropout", "1.5"])
    assert refused.exit_code == 2 and "dropout must be in [0, 1), got 1.5" in refused.output
