"""The encoder-decoder's shape: one frozen dataclass, three presets, validation a learner can
read (the rules every family shares are config_rules.py's). Its sizes' command-line flags are
declared in options.py, next to this file."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ...config_rules import at_least_one, eps_and_seed, per_head, rate, within_limits
from ...errors import ConfigError, HandformerError  # noqa: F401  (raised here)


@dataclass(frozen=True)
class Config:
    """Every size and switch of the encoder-decoder Transformer.

    ``d_k``/``d_v``/``decoder_heads`` left as None follow the paper: d_model / heads and the
    encoder's head count. ``norm``: "post" (LN(x + Sublayer(x)), the paper) or "pre"
    (x + Sublayer(LN(x)), the Annotated Transformer, GPT-2). ``tie_embeddings``: one table E
    for the source and target embeddings and the output layer's weights (W_out = Eᵀ, §3.4).
    """

    preset: str = "custom"
    d_model: int = 6
    heads: int = 1
    decoder_heads: int | None = None
    d_k: int | None = None
    d_v: int | None = None
    d_ff: int = 24
    encoder_layers: int = 1
    decoder_layers: int = 1
    ffn: str = "paper"
    attn_bias: bool = True
    scale_embeddings: bool = True
    final_norm: bool = True
    norm: str = "post"
    tie_embeddings: bool = False
    init: str = "xavier"
    ln_eps: float = 1e-5
    max_len: int = 64
    dropout: float = 0.0
    label_smoothing: float = 0.0
    seed: int = 0

    def __post_init__(self) -> None:
        if self.decoder_heads is None:
            object.__setattr__(self, "decoder_heads", self.heads)
        if self.d_k is None:
            object.__setattr__(self, "d_k", per_head(self.d_model, self.heads, "d_k"))
        if self.d_v is None:
            object.__setattr__(self, "d_v", self.d_k)
        _validate(self)

    def replace(self, **changes) -> Config:
        """A copy with some fields changed; d_k/d_v follow d_model/heads, d_v follows d_k,
        unless given."""
        if ("d_model" in changes or "heads" in changes) and self.preset != "tutorial":
            changes.setdefault("d_k", None)
            changes.setdefault("d_v", None)
        if "d_k" in changes and "d_v" not in changes:
            changes["d_v"] = None  # d_v follows d_k unless given
        if changes.get("ffn", self.ffn) == "single" and "d_ff" not in changes:
            changes["d_ff"] = changes.get("d_model", self.d_model)  # one d_model × d_model layer
        if "heads" in changes and "decoder_heads" not in changes:
            changes["decoder_heads"] = None
        if "layers" in changes:
            layers = changes.pop("layers")
            changes.setdefault("encoder_layers", layers)
            changes.setdefault("decoder_layers", layers)
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: dict) -> Config:
        from ...schema import SchemaError, config_fields

        try:
            return cls(**config_fields(cls, data))
        except SchemaError as err:
            raise ConfigError(str(err)) from None


def _validate(c: Config) -> None:
    at_least_one(c, ("d_model", "heads", "decoder_heads", "d_k", "d_v", "d_ff", "max_len"))
    if c.encoder_layers < 1 or c.decoder_layers < 1:
        raise ConfigError(
            f"an encoder-decoder needs at least one layer on each side, got "
            f"{c.encoder_layers} encoder and {c.decoder_layers} decoder layers"
        )
    within_limits(c, LIMITED)  # a crafted size is named too large before any rule relating sizes
    if c.d_model % 2:
        raise ConfigError(
            f"d_model {c.d_model} is odd, but sinusoidal positional encoding fills columns in "
            f"sin/cos pairs; use an even d_model such as {c.d_model + 1}"
        )
    if c.ffn not in ("single", "paper"):
        raise ConfigError(f"ffn must be 'single' (one linear + ReLU) or 'paper', got {c.ffn!r}")
    if c.ffn == "single" and c.d_ff != c.d_model:
        raise ConfigError(
            f"ffn 'single' is one d_model × d_model linear layer, so d_ff must equal d_model "
            f"{c.d_model}, got d_ff {c.d_ff}; leave d_ff out or use ffn 'paper'")
    if c.norm not in ("post", "pre"):
        raise ConfigError(f"norm must be 'post' (LN(x + Sublayer(x)), the paper) or 'pre' "
                          f"(x + Sublayer(LN(x))), got {c.norm!r}")
    if c.init not in ("uniform", "xavier"):
        raise ConfigError(f"init must be 'uniform' or 'xavier', got {c.init!r}")
    rate(c, "dropout")
    rate(c, "label_smoothing")
    eps_and_seed(c)
    check_size(c)


# Each size and the limit it is checked against (limits.py).
LIMITED = (("d_model", "d_model"), ("d_k", "d_model"), ("d_v", "d_model"), ("d_ff", "d_ff"),
           ("heads", "heads"), ("decoder_heads", "heads"), ("encoder_layers", "layers"),
           ("decoder_layers", "layers"), ("max_len", "max_len"))


def vocab_sizes(vocab_size) -> tuple[int, int]:
    """(source, target) vocabulary sizes from one shared size or a pair of them."""
    if isinstance(vocab_size, tuple):
        return int(vocab_size[0]), int(vocab_size[1])
    return int(vocab_size), int(vocab_size)


def weight_count(c: Config, vocab_size: int | tuple[int, int] = 0) -> int:
    """Numbers in the model's weights: the stacks, plus the source embedding (source size)
    and the target embedding and generator (target size); one table when tied."""
    def attn(h):
        return 2 * c.d_model * h * c.d_k + 2 * c.d_model * h * c.d_v

    ffn = 2 * c.d_model * c.d_ff
    n_src, n_tgt = vocab_sizes(vocab_size)
    tables = n_tgt if c.tie_embeddings else n_src + 2 * n_tgt  # embeddings and W_out
    return c.encoder_layers * (attn(c.heads) + ffn) + c.decoder_layers * (
        2 * attn(c.decoder_heads) + ffn) + tables * c.d_model


def check_size(c: Config, vocab_size: int | tuple[int, int] = 0) -> None:
    """Refuse a model too large to hold, before allocating it."""
    from ...limits import check, limit

    n_src, n_tgt = vocab_sizes(vocab_size)
    check("vocab", max(n_src, n_tgt), "the vocabulary size")
    numbers = weight_count(c, vocab_size)
    if numbers > limit("numbers"):
        vocab = "" if not n_tgt else (f", a vocabulary of {n_tgt:,}" if n_src == n_tgt else
                                      f", vocabularies of {n_src:,} and {n_tgt:,}")
        check("numbers", numbers,
              f"the weights of this model (d_model {c.d_model}, d_ff {c.d_ff}, "
              f"{c.encoder_layers}+{c.decoder_layers} layers{vocab}: {numbers * 8 / 2**30:,.1f} "
              f"GiB in float64; the paper preset has 44 million)")


PRESETS: dict[str, dict] = {
    # The seed tutorial's toy: 6-dim embeddings, 4-column Q/K/V, one encoder head,
    # two decoder heads, single-linear FFN, uniform [0, 1) weights, no embedding scale.
    "tutorial": dict(
        d_model=6, heads=1, decoder_heads=2, d_k=4, d_v=4, d_ff=6, encoder_layers=1,
        decoder_layers=1, ffn="single", attn_bias=False, scale_embeddings=False,
        final_norm=False, init="uniform", max_len=64,
    ),
    # The paper's architecture at a size that trains in seconds and verifies in milliseconds.
    "small": dict(
        d_model=32, heads=4, d_ff=64, encoder_layers=2, decoder_layers=2, ffn="paper",
        attn_bias=True, scale_embeddings=True, final_norm=True, init="xavier", max_len=64,
    ),
    # "Attention Is All You Need", base model; final_norm matches torch.nn.Transformer.
    "paper": dict(
        d_model=512, heads=8, d_ff=2048, encoder_layers=6, decoder_layers=6, ffn="paper",
        attn_bias=True, scale_embeddings=True, final_norm=True, init="xavier", max_len=512,
        dropout=0.1, label_smoothing=0.1,
    ),
}


def preset(name: str, **overrides) -> Config:
    """The named preset with any fields overridden (None values are ignored)."""
    if name not in PRESETS:
        raise ConfigError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
    base = Config(preset=name, **PRESETS[name])
    changes = {k: v for k, v in overrides.items() if v is not None}
    return base.replace(**changes) if changes else base
