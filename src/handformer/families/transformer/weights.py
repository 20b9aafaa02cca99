"""The encoder-decoder's weights in and out as safetensors (the file of interop/weights.py), under
torch.nn.Transformer's state_dict names and layouts.

Our parameters are row-vector matrices (x @ W, W of shape (d_in, d_out)); torch's Linear keeps
W transposed, (d_out, d_in), and packs W_Q, W_K, W_V into one ``in_proj_weight``. The mapping
below is the whole difference. Where a config has no torch counterpart (single-linear FFN, no
attention biases, d_k·h ≠ d_model) the names follow the same pattern with the shapes it has.
"""

from __future__ import annotations

import json
import re

import numpy as np

from ...errors import ConfigError, WeightsError  # noqa: F401  (raised here)
from ...interop.weights import FORMAT, family_metadata, read_weights, side_vocab, write_state
from ...schema import SchemaError, string
from ...text import Sides, Vocab
from ...textsafe import json_loads
from .config import Config

_NORMS = {"ln1": "norm1", "ln2": "norm2", "ln3": "norm3"}




def to_state_dict(params: dict[str, np.ndarray], cfg: Config) -> dict[str, np.ndarray]:
    """Our flat parameters under torch names and layouts. Tied embeddings are one table under
    the three names a tied torch model's state_dict lists it by."""
    if cfg.tie_embeddings:
        table = params["embed.weight"]
        out = {"src_embed.weight": table, "tgt_embed.weight": table, "generator.weight": table}
    else:
        out = {"src_embed.weight": params["src_embed.weight"],
               "tgt_embed.weight": params["tgt_embed.weight"],
               "generator.weight": params["generator.w"].T}
    out["generator.bias"] = params["generator.b"]
    for side, count in (("encoder", cfg.encoder_layers), ("decoder", cfg.decoder_layers)):
        for i in range(count):
            out |= _layer_to_torch(params, cfg, side, i)
        if cfg.final_norm:
            out[f"{side}.norm.weight"] = params[f"{side}.norm.gamma"]
            out[f"{side}.norm.bias"] = params[f"{side}.norm.beta"]
    return {k: np.ascontiguousarray(v) for k, v in out.items()}


def _layer_to_torch(params, cfg: Config, side: str, i: int) -> dict:
    ours, theirs = f"{side}.{i}", f"{side}.layers.{i}"
    out = {}
    attns = [("self_attn", "self_attn")] + ([("cross_attn", "multihead_attn")] if side == "decoder" else [])
    for mine, torch_name in attns:
        p, t = f"{ours}.{mine}", f"{theirs}.{torch_name}"
        out[f"{t}.in_proj_weight"] = np.concatenate([params[f"{p}.w_{x}"].T for x in "qkv"])
        out[f"{t}.out_proj.weight"] = params[f"{p}.w_o"].T
        if cfg.attn_bias:
            out[f"{t}.in_proj_bias"] = np.concatenate([params[f"{p}.b_{x}"] for x in "qkv"])
            out[f"{t}.out_proj.bias"] = params[f"{p}.b_o"]
    for n in ("1", "2"):
        if f"{ours}.ffn.w_{n}" in params:
            out[f"{theirs}.linear{n}.weight"] = params[f"{ours}.ffn.w_{n}"].T
            out[f"{theirs}.linear{n}.bias"] = params[f"{ours}.ffn.b_{n}"]
    for ln, norm in _NORMS.items():
        if f"{ours}.{ln}.gamma" in params:
            out[f"{theirs}.{norm}.weight"] = params[f"{ours}.{ln}.gamma"]
            out[f"{theirs}.{norm}.bias"] = params[f"{ours}.{ln}.beta"]
    return out


def table_sizes(params: dict, cfg: Config) -> tuple[int, int]:
    """(source, target) vocabulary sizes read off the parameters' tables."""
    if cfg.tie_embeddings:
        return params["embed.weight"].shape[0], params["embed.weight"].shape[0]
    return params["src_embed.weight"].shape[0], params["tgt_embed.weight"].shape[0]


def from_state_dict(state: dict[str, np.ndarray], cfg: Config,
                    vocab_size: int | tuple[int, int]) -> dict:
    """The inverse of ``to_state_dict``; every tensor's name and shape is checked.
    ``vocab_size``: one shared size, or (source size, target size)."""
    from .model import param_shapes

    expected = to_state_dict({n: np.zeros(s) for n, (s, _) in param_shapes(cfg, vocab_size).items()}, cfg)
    missing = sorted(set(expected) - set(state))
    extra = sorted(set(state) - set(expected))
    if missing or extra:
        raise WeightsError(_name_mismatch(missing, extra))
    for name, want in expected.items():
        if tuple(state[name].shape) != want.shape:
            raise WeightsError(
                f"tensor {name!r} has shape {tuple(state[name].shape)}, but this model "
                f"(d_model {cfg.d_model}, heads {cfg.heads}, d_k {cfg.d_k}, d_ff {cfg.d_ff}, "
                f"vocabulary {_sizes_text(vocab_size)}) needs {want.shape}")
    if cfg.tie_embeddings and not all(np.array_equal(state["src_embed.weight"], state[n])
                                      for n in ("tgt_embed.weight", "generator.weight")):
        raise WeightsError("the model ties its embeddings (--tie-embeddings), but the file's "
                           "src_embed.weight, tgt_embed.weight and generator.weight differ; "
                           "load it without --tie-embeddings")
    return _params_from_torch(state, cfg, vocab_size)


def _sizes_text(vocab_size) -> str:
    if isinstance(vocab_size, tuple) and vocab_size[0] != vocab_size[1]:
        return f"{vocab_size[0]} source and {vocab_size[1]} target tokens"
    return str(vocab_size[0] if isinstance(vocab_size, tuple) else vocab_size)


def _name_mismatch(missing, extra) -> str:
    parts = []
    if missing:
        parts.append(f"missing {len(missing)} tensor(s), e.g. {', '.join(missing[:3])}")
    if extra:
        parts.append(f"{len(extra)} unexpected tensor(s), e.g. {', '.join(extra[:3])}")
    return "the weights do not fit this model: " + "; ".join(parts)


def _params_from_torch(state, cfg: Config, vocab_size: int | tuple[int, int],
                       ) -> dict[str, np.ndarray]:
    from .model import param_shapes

    params = {}
    for name in param_shapes(cfg, vocab_size):
        params[name] = np.ascontiguousarray(_lookup(state, cfg, name), dtype=np.float64)
    return params


def _lookup(state, cfg: Config, name: str) -> np.ndarray:
    if name in ("src_embed.weight", "tgt_embed.weight"):
        return state[name]
    if name == "embed.weight":  # tied: the one table, under the first of its torch names
        return state["src_embed.weight"]
    if name == "generator.w":
        return state["generator.weight"].T
    if name == "generator.b":
        return state["generator.bias"]
    m = re.fullmatch(r"(encoder|decoder)\.norm\.(gamma|beta)", name)
    if m:
        return state[f"{m[1]}.norm.{'weight' if m[2] == 'gamma' else 'bias'}"]
    side, i, rest = re.fullmatch(r"(encoder|decoder)\.(\d+)\.(.+)", name).groups()
    t = f"{side}.layers.{i}"
    if rest.startswith(("self_attn", "cross_attn")):
        return _attention_lookup(state, cfg, f"{t}.{'self_attn' if rest.startswith('self') else 'multihead_attn'}", rest.split(".")[1], side)
    if rest.startswith("ffn"):
        kind, n = rest.split(".")[1].split("_")
        tensor = state[f"{t}.linear{n}.{'weight' if kind == 'w' else 'bias'}"]
        return tensor.T if kind == "w" else tensor
    ln, which = rest.split(".")
    return state[f"{t}.{_NORMS[ln]}.{'weight' if which == 'gamma' else 'bias'}"]


def _attention_lookup(state, cfg: Config, t: str, leaf: str, side: str) -> np.ndarray:
    heads = cfg.heads if side == "encoder" else cfg.decoder_heads
    qk, v = heads * cfg.d_k, heads * cfg.d_v
    bounds = {"q": (0, qk), "k": (qk, 2 * qk), "v": (2 * qk, 2 * qk + v)}
    kind, which = leaf.split("_")
    if which == "o":
        tensor = state[f"{t}.out_proj.{'weight' if kind == 'w' else 'bias'}"]
        return tensor.T if kind == "w" else tensor
    lo, hi = bounds[which]
    if kind == "w":
        return state[f"{t}.in_proj_weight"][lo:hi].T
    return state[f"{t}.in_proj_bias"][lo:hi]


# --- files ----------------------------------------------------------------------------------


def save_weights(path, params, cfg: Config, vocab: list[str], specials=(),
                 target: Vocab | None = None) -> None:
    """Write safetensors atomically (temporary file, fsync, rename), config and vocab inside;
    the special tokens are listed, so a word such as <b> is never taken for one. ``target``:
    the target's own vocabulary (then ``vocab`` is the source's), as target_vocab and
    target_specials."""
    meta = {"format": FORMAT, "config": json.dumps(cfg.to_dict()), "vocab": json.dumps(vocab),
            "specials": json.dumps(list(specials))}
    if target is not None:
        meta |= {"target_vocab": json.dumps(target.tokens),
                 "target_specials": json.dumps(list(target.specials))}
    write_state(path, to_state_dict(params, cfg), meta)


def load_weights(path, cfg: Config | None = None, vocab: Vocab | None = None):
    """(params, config, vocab) from a file we saved; a foreign or mismatched file is refused."""
    tensors, meta = read_weights(path)
    family_metadata(meta, "transformer", path)
    if meta.get("format") != FORMAT and cfg is None:
        raise WeightsError(
            f"{str(path)!r} has no handformer metadata (format {FORMAT}); it was not written by "
            f"--save-weights, so its config and vocabulary are unknown")
    try:
        cfg, vocab = _file_config(meta) or cfg, _file_vocab(meta) or vocab
    except (json.JSONDecodeError, RecursionError, ConfigError, SchemaError) as err:
        raise WeightsError(f"{str(path)!r} has unreadable handformer metadata: {err}") from None
    if vocab is None:
        raise WeightsError(f"{str(path)!r} does not say which vocabulary it was trained with")
    try:
        params = from_state_dict(tensors, cfg, vocab.sizes)
    except WeightsError as err:
        if meta.get("format") == FORMAT:
            raise
        raise WeightsError(f"{str(path)!r} was not written by handformer --save-weights (no "
                           f"{FORMAT} metadata), and {err}") from None
    return params, cfg, vocab


def _file_config(meta: dict) -> Config | None:
    return Config.from_dict(json_loads(string(meta["config"], "config"), "the config", WeightsError)) if "config" in meta \
        else None


def _file_vocab(meta: dict) -> Vocab | Sides | None:
    """The vocabulary the metadata lists (the source's, with the target's as target_vocab
    when each side has its own)."""
    source = side_vocab(meta, "")
    if source is None or "target_vocab" not in meta:
        return source
    return Sides(source, side_vocab(meta, "target_"))


