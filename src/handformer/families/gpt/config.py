"""The decoder-only model's sizes and switches: one frozen dataclass, two presets, and the
options (the command line's, the Python API's) turned into one, refusing what it does not take.

Choices, each so that what differs from the encoder-decoder is the architecture and nothing
else: sinusoidal positions (no parameters; GPT-2 learns a table, which a walk of one sentence
would show as one more random matrix), ReLU in the feed-forward network (GPT-2 uses GELU),
Xavier-uniform initial weights, no √d_model scaling of the embeddings (as GPT-2).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ...config import per_head
from ...errors import ConfigError
from ...limits import check, limit

NORMS = ("pre", "post")


@dataclass(frozen=True)
class GptConfig:
    """Every size and switch of the decoder-only Transformer.

    ``norm``: "pre" (x + Sublayer(LN(x)), GPT-2) or "post" (LN(x + Sublayer(x)), the paper and
    GPT-1). ``final_norm`` left as None follows it: a last LayerNorm after the stack with
    pre-norm (nothing else normalizes the stack's output), none with post-norm.
    ``tie_embeddings``: the output layer's weights are Eᵀ, the embedding table transposed.
    """

    preset: str = "custom"
    d_model: int = 6
    heads: int = 2
    d_k: int | None = None
    d_v: int | None = None
    d_ff: int = 24
    layers: int = 1
    norm: str = "pre"
    final_norm: bool | None = None
    tie_embeddings: bool = True
    attn_bias: bool = False
    ln_eps: float = 1e-5
    max_len: int = 64
    dropout: float = 0.0
    seed: int = 0
    ffn: str = "paper"  # read by engine.layers.feed_forward: two linear layers, always

    def __post_init__(self) -> None:
        if self.d_k is None:  # d_model / heads, or a message saying which heads would fit
            object.__setattr__(self, "d_k", per_head(self.d_model, self.heads, "d_k"))
        if self.d_v is None:
            object.__setattr__(self, "d_v", self.d_k)
        if self.final_norm is None:
            object.__setattr__(self, "final_norm", self.norm == "pre")
        _validate(self)

    # The sizes limits.check_walk reads of every family (it counts an encoder and a decoder):
    # one stack, no encoder.
    @property
    def decoder_heads(self) -> int:
        return self.heads

    @property
    def decoder_layers(self) -> int:
        return self.layers

    encoder_layers = 0

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: dict) -> GptConfig:
        from ...schema import SchemaError, config_fields

        try:
            return cls(**config_fields(cls, data))
        except SchemaError as err:
            raise ConfigError(str(err)) from None


def _validate(c: GptConfig) -> None:
    for name in ("d_model", "heads", "d_k", "d_v", "d_ff", "layers", "max_len"):
        if getattr(c, name) < 1:
            raise ConfigError(f"{name} must be at least 1, got {getattr(c, name)}")
    for name, bound in (("d_model", "d_model"), ("d_k", "d_model"), ("d_v", "d_model"),
                        ("d_ff", "d_ff"), ("heads", "heads"), ("layers", "layers"),
                        ("max_len", "max_len")):
        check(bound, getattr(c, name), name)
    if c.d_model % 2:
        raise ConfigError(f"d_model {c.d_model} is odd, but sinusoidal positional encoding "
                          f"fills columns in sin/cos pairs; use an even d_model such as "
                          f"{c.d_model + 1}")
    if c.norm not in NORMS:
        raise ConfigError(f"norm must be 'pre' (x + Sublayer(LN(x)), GPT-2) or 'post' "
                          f"(LN(x + Sublayer(x)), the paper), got {c.norm!r}")
    if c.ffn != "paper":
        raise ConfigError(f"the GPT family's feed-forward network is two linear layers "
                          f"(ffn 'paper'), got {c.ffn!r}")
    if not 0.0 <= c.dropout < 1.0:
        raise ConfigError(f"dropout must be in [0, 1), got {c.dropout}")
    if not 0 < c.ln_eps < float("inf"):
        raise ConfigError(f"ln_eps must be positive, got {c.ln_eps}")
    if c.seed < 0:
        raise ConfigError(f"seed must be 0 or more, got {c.seed}")


def weight_count(c: GptConfig, vocab_size: int) -> int:
    """Numbers in the weights: the layers, the embedding table, and W_out unless tied."""
    attn = 2 * c.d_model * c.heads * (c.d_k + c.d_v)
    per_layer = attn + 2 * c.d_model * c.d_ff + c.d_ff + c.d_model + 4 * c.d_model
    out = 0 if c.tie_embeddings else vocab_size * c.d_model
    return c.layers * per_layer + vocab_size * c.d_model + out


def check_size(c: GptConfig, vocab_size: int) -> None:
    """Refuse a model too large to hold, before allocating it."""
    check("vocab", vocab_size, "the vocabulary size")
    numbers = weight_count(c, vocab_size)
    if numbers > limit("numbers"):
        check("numbers", numbers, f"the weights of this model (d_model {c.d_model}, d_ff "
                                  f"{c.d_ff}, {c.layers} layers, a vocabulary of {vocab_size:,})")


PRESETS: dict[str, dict] = {
    # The tutorial's toy, decoder-only: 6-dim embeddings, two heads of d_k 3 (the tutorial's
    # decoder has two heads), one layer, d_ff = 4·d_model as in GPT.
    "tutorial": dict(d_model=6, heads=2, d_ff=24, layers=1),
    # A size that learns the tutorial's three lines in seconds (handformer train --family gpt).
    "small": dict(d_model=32, heads=4, d_ff=128, layers=2),
}

# The options the command line (and the Python API) may give that this family reads, and
# those it refuses with a reason.
TAKEN = {"d_model", "heads", "d_k", "d_v", "d_ff", "layers", "norm", "final_norm",
         "tie_embeddings", "attn_bias", "ln_eps", "max_len", "dropout", "seed"}
REFUSED = {
    "decoder_heads": "it has one stack: use --heads",
    "encoder_layers": "it has no encoder: use --layers",
    "decoder_layers": "it has one stack: use --layers",
    "ffn": "its feed-forward network is always two linear layers",
    "scale_embeddings": "it does not scale its embeddings (as GPT-2)",
    "init": "its initial weights are Xavier-uniform",
    "label_smoothing": "its loss is plain next-token cross-entropy",
    "shards": "it has no data-shard view",
    "pretrained": "it loads no pretrained model",
}


def from_options(options: dict) -> GptConfig:
    """The preset (tutorial unless named) with the options' config fields over it; an option
    this family does not take is refused by name, with the reason."""
    given = {k: v for k, v in options.items() if v is not None and v is not False}
    refused = sorted(k for k in given if k in REFUSED)
    if refused:
        reasons = "; ".join(f"--{k.replace('_', '-')}: {REFUSED[k]}" for k in refused)
        raise ConfigError(f"the gpt family (a decoder-only model) does not take {reasons}")
    name = options.get("preset") or "tutorial"
    if name not in PRESETS:
        raise ConfigError(f"the gpt family has the presets {', '.join(PRESETS)}, not {name!r}")
    fields = {k: v for k, v in options.items() if k in TAKEN and v is not None}
    return GptConfig(preset=name, **(PRESETS[name] | fields))
