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

from ...config_rules import at_least_one, eps_and_seed, per_head, rate, within_limits
from ...errors import ConfigError
from ...limits import check, limit

NORMS = ("pre", "post")
NORM_KINDS = ("layer", "rms")
POSITIONS = ("sinusoidal", "rope")
ROPE_PAIRS = ("half", "adjacent")
FFNS = ("paper", "swiglu")
SWIGLU_MULTIPLE = 8  # the SwiGLU hidden width's default is rounded up to a multiple of this

# Fields added with the parts of today's LLMs: a config at their defaults writes none of them
# (to_dict), so the tapes and checkpoints of the plain model keep their bytes.
MODERN_DEFAULTS = {"pos": "sinusoidal", "rope_base": 10000.0, "rope_pairs": "half",
                   "norm_kind": "layer", "kv_heads": None}


@dataclass(frozen=True)
class GptConfig:
    """Every size and switch of the decoder-only Transformer.

    ``norm``: "pre" (x + Sublayer(LN(x)), GPT-2) or "post" (LN(x + Sublayer(x)), the paper and
    GPT-1). ``final_norm`` left as None follows it: a last LayerNorm after the stack with
    pre-norm (nothing else normalizes the stack's output), none with post-norm.
    ``tie_embeddings``: the output layer's weights are Eᵀ, the embedding table transposed.

    The parts of today's LLMs (Llama): ``pos`` "rope" rotates each head's q and k by their
    positions (``rope_base``, ``rope_pairs``) instead of adding sinusoids to the input;
    ``norm_kind`` "rms" is RMSNorm (γ only); ``ffn`` "swiglu" is (SiLU(X W_gate) ⊙ X W_up)
    W_down; ``kv_heads`` (None: ``heads``) key/value heads, each shared by heads / kv_heads
    query heads (grouped-query attention; 1 is multi-query).
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
    ffn: str = "paper"  # read by engine.layers.feed_forward: "paper" (two linears) or "swiglu"
    pos: str = "sinusoidal"
    rope_base: float = 10000.0
    rope_pairs: str = "half"
    norm_kind: str = "layer"
    kv_heads: int | None = None

    def __post_init__(self) -> None:
        if self.d_k is None:  # d_model / heads, or a message saying which heads would fit
            object.__setattr__(self, "d_k", per_head(self.d_model, self.heads, "d_k"))
        if self.d_v is None:
            object.__setattr__(self, "d_v", self.d_k)
        if self.final_norm is None:
            object.__setattr__(self, "final_norm", self.norm == "pre")
        if self.kv_heads is None:
            object.__setattr__(self, "kv_heads", self.heads)
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

    @property
    def groups(self) -> int:
        """Query heads per key/value head (1: multi-head attention as in the paper)."""
        return self.heads // self.kv_heads

    @property
    def modern(self) -> bool:
        """Whether any part of today's LLMs is switched on."""
        return (self.pos, self.norm_kind, self.ffn, self.kv_heads) != (
            "sinusoidal", "layer", "paper", self.heads)

    def to_dict(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        if data["kv_heads"] == data["heads"]:
            data["kv_heads"] = None
        return {k: v for k, v in data.items()
                if k not in MODERN_DEFAULTS or v != MODERN_DEFAULTS[k]}

    @classmethod
    def from_dict(cls, data: dict) -> GptConfig:
        from ...schema import SchemaError, config_fields

        try:
            return cls(**config_fields(cls, data))
        except SchemaError as err:
            raise ConfigError(str(err)) from None


def _validate(c: GptConfig) -> None:
    at_least_one(c, ("d_model", "heads", "d_k", "d_v", "d_ff", "layers", "max_len"))
    within_limits(c, (("d_model", "d_model"), ("d_k", "d_model"), ("d_v", "d_model"),
                      ("d_ff", "d_ff"), ("heads", "heads"), ("layers", "layers"),
                      ("max_len", "max_len")))
    if c.d_model % 2 and c.pos == "sinusoidal":
        raise ConfigError(f"d_model {c.d_model} is odd, but sinusoidal positional encoding "
                          f"fills columns in sin/cos pairs; use an even d_model such as "
                          f"{c.d_model + 1} (rotary positions, --pos rope, add nothing to the input)")
    _validate_modern(c)
    if c.norm not in NORMS:
        raise ConfigError(f"norm must be 'pre' (x + Sublayer(LN(x)), GPT-2) or 'post' "
                          f"(LN(x + Sublayer(x)), the paper), got {c.norm!r}")
    if c.ffn not in FFNS:
        raise ConfigError(f"ffn must be 'paper' (two linear layers with ReLU) or 'swiglu' "
                          f"(Llama's gated SiLU) in the gpt family, got {c.ffn!r}")
    rate(c, "dropout")
    eps_and_seed(c)


def _validate_modern(c: GptConfig) -> None:
    for name, allowed in (("pos", POSITIONS), ("rope_pairs", ROPE_PAIRS),
                          ("norm_kind", NORM_KINDS)):
        if getattr(c, name) not in allowed:
            raise ConfigError(f"{name} must be one of {', '.join(allowed)}, got "
                              f"{getattr(c, name)!r}")
    if c.pos == "rope" and c.d_k % 2:
        raise ConfigError(f"rotary positions turn each head's q and k in pairs of columns, so "
                          f"d_k must be even, got d_k {c.d_k}")
    if not 1.0 < c.rope_base < float("inf"):
        raise ConfigError(f"rope_base must be more than 1, got {c.rope_base}")
    if not 1 <= c.kv_heads <= c.heads or c.heads % c.kv_heads:
        fits = [k for k in range(1, c.heads + 1) if c.heads % k == 0]
        raise ConfigError(f"kv_heads must divide the {c.heads} query heads (each key/value "
                          f"head serves a group of them): choose one of "
                          f"{', '.join(map(str, fits))}, got {c.kv_heads}")


def swiglu_width(d_model: int) -> int:
    """Llama's rule for SwiGLU's hidden width: 2/3 of 4·d_model (so that three matrices hold
    about as many numbers as the two of a 4·d_model ReLU network), rounded up to a multiple of
    SWIGLU_MULTIPLE."""
    width = -(-8 * d_model // 3)  # ⌈2/3 · 4 · d_model⌉
    return -(-width // SWIGLU_MULTIPLE) * SWIGLU_MULTIPLE


def weight_count(c: GptConfig, vocab_size: int) -> int:
    """Numbers in the weights: the layers, the embedding table, and W_out unless tied."""
    attn = c.d_model * (c.heads * c.d_k + c.kv_heads * (c.d_k + c.d_v) + c.heads * c.d_v)
    ffn = 3 * c.d_model * c.d_ff if c.ffn == "swiglu" else 2 * c.d_model * c.d_ff + c.d_ff + c.d_model
    per_layer = attn + ffn + (2 if c.norm_kind == "rms" else 4) * c.d_model
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
    # The parts of today's LLMs at a hand-sized width: rotary positions, RMSNorm, SwiGLU (its
    # width by Llama's rule: ⌈2/3 · 4 · 8⌉ = 22, rounded up to 24) and four query heads sharing
    # two key/value heads (d_k 2: RoPE turns one pair of columns per head).
    "llama": dict(d_model=8, heads=4, kv_heads=2, d_ff=24, layers=1, pos="rope",
                  norm_kind="rms", ffn="swiglu"),
}

# The options the command line (and the Python API) may give that this family reads, and
# those it refuses with a reason.
TAKEN = {"d_model", "heads", "d_k", "d_v", "d_ff", "layers", "norm", "final_norm",
         "tie_embeddings", "attn_bias", "ln_eps", "max_len", "dropout", "seed", "ffn", "pos",
         "rope_base", "rope_pairs", "norm_kind", "kv_heads"}
REFUSED = {
    "decoder_heads": "it has one stack: use --heads",
    "encoder_layers": "it has no encoder: use --layers",
    "decoder_layers": "it has one stack: use --layers",
    "scale_embeddings": "it does not scale its embeddings (as GPT-2)",
    "init": "its initial weights are Xavier-uniform",
    "label_smoothing": "its loss is plain next-token cross-entropy",
    "shards": "it has no data-shard view",
    "pretrained": "it loads no pretrained model",
    "dtype": "its own models compute in float64 (--dtype chooses --pretrained's weights)",
    "blocks_shown": "its own models show every block (--blocks-shown is --pretrained's)",
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
    fields = PRESETS[name] | {k: v for k, v in options.items() if k in TAKEN and v is not None}
    if fields.get("ffn") == "swiglu" and options.get("d_ff") is None:
        fields["d_ff"] = swiglu_width(fields["d_model"])
    return GptConfig(preset=name, **fields)
