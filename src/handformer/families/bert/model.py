"""A BERT-family encoder (e.g. all-MiniLM-L6-v2), composed from ops, every step on a tape.

Encoder-only: embeddings (word + learned position + token type, then layer norm), N post-norm
layers of multi-head self-attention and a GELU feed-forward, then mean pooling over the real
tokens and L2 normalization: the sentence embedding. Shapes: ids (n,) or (B, n); hidden states
(…, n, d_model); heads on axis -3, as in the encoder-decoder (engine/layers.py).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from ...engine.formula import head, sub
from ...engine.layers import add_norm, attention, norm_attrs, row_stats
from ...engine.tape import Tape
from ...errors import ConfigError
from ...limits import check
from ...schema import config_fields, integer, number
from . import ops  # noqa: F401  (registers gelu, add3, mean_pool, l2_normalize, gram)


@dataclass(frozen=True)
class BertConfig:
    """The sizes of a BERT encoder, named as the encoder-decoder names them (d_model, heads, d_ff)."""

    vocab_size: int = 30522
    d_model: int = 384
    heads: int = 12
    layers: int = 6
    d_ff: int = 1536
    max_positions: int = 512
    type_vocab_size: int = 2
    ln_eps: float = 1e-12
    max_tokens: int = 256  # the longest input the sentence model was trained to take
    pad_id: int = 0
    # What model.attention and add_norm read: BERT has biases and no dropout at inference.
    attn_bias: bool = True
    dropout: float = 0.0

    def __post_init__(self) -> None:
        check_config(self)
        if self.d_model % self.heads:
            raise ConfigError(f"hidden_size {self.d_model} is not divisible by "
                              f"num_attention_heads {self.heads}")

    @property
    def d_k(self) -> int:
        return self.d_model // self.heads

    @property
    def d_v(self) -> int:
        return self.d_k

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> BertConfig:
        """A tape's "config" back into sizes, each field checked by its type."""
        return cls(**config_fields(cls, data))


# Each field as config.json names it (a model folder's config is where these come from).
JSON_NAMES = {"vocab_size": "vocab_size", "d_model": "hidden_size", "heads": "num_attention_heads",
              "layers": "num_hidden_layers", "d_ff": "intermediate_size",
              "max_positions": "max_position_embeddings", "type_vocab_size": "type_vocab_size",
              "ln_eps": "layer_norm_eps", "max_tokens": "max_seq_length", "pad_id": "pad_token_id"}
_BOUNDS = {"vocab_size": "vocab", "d_model": "d_model", "heads": "heads", "layers": "layers",
           "d_ff": "d_ff", "max_positions": "max_len", "type_vocab_size": "vocab",
           "max_tokens": "max_len"}


def check_config(cfg: BertConfig) -> None:
    """Types and ranges of every size, then the weights' total, before anything is allocated."""
    for name, bound in _BOUNDS.items():
        integer(getattr(cfg, name), JSON_NAMES[name], 1)
        check(bound, getattr(cfg, name), JSON_NAMES[name])
    integer(cfg.pad_id, "pad_token_id", 0, cfg.vocab_size - 1)
    number(cfg.ln_eps, "layer_norm_eps", 0.0)
    if cfg.ln_eps == 0:
        raise ConfigError("layer_norm_eps must be positive, got 0")
    d, f = cfg.d_model, cfg.d_ff
    total = (cfg.vocab_size + cfg.max_positions + cfg.type_vocab_size) * d + cfg.layers * (
        4 * d * d + 2 * d * f + 9 * d + f)
    check("numbers", total, f"the weights of this model ({cfg.layers} layers, hidden_size {d}, "
          f"vocab_size {cfg.vocab_size:,})")


def param_shapes(cfg: BertConfig) -> dict[str, tuple[int, ...]]:
    """Every parameter's handformer name and shape (weights as (d_in, d_out): x @ W)."""
    d, f = cfg.d_model, cfg.d_ff
    shapes = {"embeddings.word.weight": (cfg.vocab_size, d),
              "embeddings.position.weight": (cfg.max_positions, d),
              "embeddings.token_type.weight": (cfg.type_vocab_size, d),
              "embeddings.ln.gamma": (d,), "embeddings.ln.beta": (d,)}
    for i in range(cfg.layers):
        p = f"layer.{i}"
        for w in ("q", "k", "v", "o"):
            shapes |= {f"{p}.self_attn.w_{w}": (d, d), f"{p}.self_attn.b_{w}": (d,)}
        shapes |= {f"{p}.ln1.gamma": (d,), f"{p}.ln1.beta": (d,),
                   f"{p}.ffn.w_1": (d, f), f"{p}.ffn.b_1": (f,),
                   f"{p}.ffn.w_2": (f, d), f"{p}.ffn.b_2": (d,),
                   f"{p}.ln2.gamma": (d,), f"{p}.ln2.beta": (d,)}
    return shapes


def forward(tape: Tape, cfg: BertConfig, ids, pad=None) -> str:
    """Sentence embeddings for ids (n,) or (B, n); ``pad`` marks [PAD] positions (True)."""
    ids = np.asarray(ids)
    pad = np.zeros(ids.shape, dtype=bool) if pad is None else np.asarray(pad, dtype=bool)
    x = embeddings(tape, cfg, tape.constant("src.ids", ids))
    allowed = ~pad[..., None, None, :]  # a query may look at every real token, never at [PAD]
    for i in range(cfg.layers):
        x = layer(tape, cfg, i, x, allowed)
    weights = (~pad).astype(np.int8)
    pooled = tape.run("pooling.mean", "mean_pool", [x], {"weights": weights},
                      symbols={"out": "u", "x": head("H", cfg.layers)},
                      extras={"count": weights.sum(axis=-1)} if tape.record else None)
    norm = np.sqrt((tape[pooled] ** 2).sum(axis=-1)) if tape.record else None
    return tape.run("pooling.normalized", "l2_normalize", [pooled], {"eps": 1e-12},
                    symbols={"out": "e", "x": "u"},
                    extras={"norm": norm} if tape.record else None)


def embeddings(tape: Tape, cfg: BertConfig, ids: str) -> str:
    """X = LN(E_word[ids] + E_pos[0…n−1] + E_type[0…]): every position learned, not sinusoidal."""
    shape = tape[ids].shape
    if shape[-1] > cfg.max_positions:
        raise ConfigError(f"{shape[-1]} tokens, but the model has only {cfg.max_positions} "
                          "learned positions")
    positions = tape.constant("src.positions", np.broadcast_to(np.arange(shape[-1]), shape))
    types = tape.constant("src.token_types", np.zeros(shape, dtype=np.int64))
    word = tape.run("embeddings.word", "embed", [ids, "embeddings.word.weight"],
                    symbols={"out": sub("X", "word"), "table": sub("E", "word")})
    pos = tape.run("embeddings.position", "embed", [positions, "embeddings.position.weight"],
                   symbols={"out": sub("X", "pos"), "table": sub("E", "pos")})
    typ = tape.run("embeddings.token_type", "embed", [types, "embeddings.token_type.weight"],
                   symbols={"out": sub("X", "type"), "table": sub("E", "type")})
    total = tape.run("embeddings.sum", "add3", [word, pos, typ],
                     symbols={"out": sub("X", "sum"), "a": sub("X", "word"), "b": sub("X", "pos"),
                              "c": sub("X", "type")})
    extras = row_stats(tape[total], cfg.ln_eps) if tape.record else None
    return tape.run("embeddings.ln.out", "layer_norm",
                    [total, "embeddings.ln.gamma", "embeddings.ln.beta"],
                    norm_attrs(tape, cfg.ln_eps),
                    symbols={"out": head("H", 0), "x": sub("X", "sum")}, extras=extras)


def layer(tape: Tape, cfg: BertConfig, i: int, x: str, allowed: np.ndarray) -> str:
    """H' = LN(H + MHA(H)); H_next = LN(H' + FFN(H')): post-norm, as in the paper."""
    p = f"layer.{i}"
    a = attention(tape, cfg, f"{p}.self_attn", x, x, cfg.heads, allowed, kv_symbol="H")
    x = add_norm(tape, cfg, p, "ln1", x, a)
    x = add_norm(tape, cfg, p, "ln2", x, feed_forward(tape, p, x))
    return tape.run(f"{p}.out", "identity", [x], symbols={"out": head("H", i + 1), "x": "H"})


def feed_forward(tape: Tape, p: str, x: str) -> str:
    """FFN(H) = GELU(H W_1 + b_1) W_2 + b_2, GELU in its exact erf form."""
    pre = tape.run(f"{p}.ffn.pre", "linear", [x, f"{p}.ffn.w_1", f"{p}.ffn.b_1"],
                   symbols={"out": "F", "x": "H", "w": sub("W", 1), "b": sub("b", 1)})
    act = tape.run(f"{p}.ffn.act", "gelu", [pre], symbols={"out": "G", "x": "F"})
    return tape.run(f"{p}.ffn.out", "linear", [act, f"{p}.ffn.w_2", f"{p}.ffn.b_2"],
                    symbols={"out": r"\mathrm{FFN}", "x": "G", "w": sub("W", 2), "b": sub("b", 2)})

