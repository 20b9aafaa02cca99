"""The Llama recipe's weights under Hugging Face's ``LlamaForCausalLM`` names, so that
``transformers`` loads what `walk --family gpt --save-weights` writes and computes the walk's
logits (tests/families/gpt/test_llama_weights.py).

    model.embed_tokens.weight                          E, (vocab, d_model)
    model.layers.{i}.self_attn.{q,k,v,o}_proj.weight   W_Qᵀ, W_Kᵀ, W_Vᵀ, W_Oᵀ (Linear's (out, in))
    model.layers.{i}.mlp.{gate,up,down}_proj.weight    W_gateᵀ, W_upᵀ, W_downᵀ
    model.layers.{i}.input_layernorm.weight            γ of ln1 (before self-attention)
    model.layers.{i}.post_attention_layernorm.weight   γ of ln2 (before the FFN)
    model.norm.weight                                  γ of the final norm
    lm_head.weight                                     W_outᵀ (only untied)

Note: Hugging Face turns q and k in half pairs (rotate_half: column i with i + d_k/2). A model
with adjacent pairs (2i, 2i + 1) is written with each head's columns of W_Q and W_K reordered
(0, 2, 4, …, 1, 3, 5, …): the same rotation then turns the same pairs, and q·k, a sum over the
columns, does not change with their order. Reading undoes it.
"""

from __future__ import annotations

import numpy as np

from ...errors import WeightsError
from .config import GptConfig
from .model import param_shapes
from .weights import check_fits

ATTN = {"q": "q_proj", "k": "k_proj", "v": "v_proj", "o": "o_proj"}
MLP = {"gate": "gate_proj", "up": "up_proj", "down": "down_proj"}
NORMS = {"ln1": "input_layernorm", "ln2": "post_attention_layernorm"}


def not_llama(cfg: GptConfig) -> list[str]:
    """The parts of ``cfg`` a LlamaForCausalLM does not have, each with the switch to change."""
    checks = [
        (cfg.pos != "rope", "sinusoidal positions (Llama's are rotary: --pos rope)"),
        (cfg.norm_kind != "rms", "LayerNorm (Llama's is RMSNorm: --norm-kind rms)"),
        (cfg.ffn != "swiglu", "a ReLU feed-forward network (Llama's is SwiGLU: --ffn swiglu)"),
        (cfg.norm != "pre", "post-norm (Llama normalizes before each sublayer: --norm pre)"),
        (not cfg.final_norm, "no final norm (Llama has one)"),
        (cfg.attn_bias, "attention biases (Llama has none: drop --attn-bias)"),
        (cfg.d_v != cfg.d_k, f"d_v {cfg.d_v} ≠ d_k {cfg.d_k} (Llama has one head_dim)"),
        (cfg.d_model % cfg.heads != 0, f"d_model {cfg.d_model} not a multiple of its "
                                        f"{cfg.heads} heads (LlamaConfig requires one)"),
    ]
    return [part for wrong, part in checks if wrong]


def refuse_unless_llama(cfg: GptConfig) -> None:
    parts = not_llama(cfg)
    if parts:
        raise WeightsError(f"Hugging Face's Llama names fit the Llama recipe only, and this "
                           f"model has {'; '.join(parts)}")


# --- the pairs' permutation -----------------------------------------------------------------


def half_order(cfg: GptConfig, heads: int) -> np.ndarray:
    """The columns of W_Q (or W_K) in Hugging Face's order: identity with half pairs; with
    adjacent pairs, each head's even columns, then its odd ones."""
    within = np.arange(cfg.d_k)
    if cfg.rope_pairs == "adjacent":
        within = np.concatenate([within[0::2], within[1::2]])
    return np.concatenate([h * cfg.d_k + within for h in range(heads)])


def _qk_columns(params: dict, cfg: GptConfig, attn: str, which: str, inverse: bool):
    heads = cfg.heads if which == "q" else cfg.kv_heads
    order = half_order(cfg, heads)
    return params[f"{attn}.w_{which}"][:, np.argsort(order) if inverse else order]


# --- names ----------------------------------------------------------------------------------


def to_state_dict(params: dict[str, np.ndarray], cfg: GptConfig) -> dict[str, np.ndarray]:
    """Our parameters (or their gradients) under LlamaForCausalLM's names: Linear weights
    transposed, W_Q and W_K in rotate_half's column order."""
    refuse_unless_llama(cfg)
    out = {"model.embed_tokens.weight": params["embed.weight"]}
    for i in range(cfg.layers):
        ours, theirs = f"decoder.{i}", f"model.layers.{i}"
        for x, name in ATTN.items():
            w = _qk_columns(params, cfg, f"{ours}.self_attn", x, False) if x in "qk" \
                else params[f"{ours}.self_attn.w_{x}"]
            out[f"{theirs}.self_attn.{name}.weight"] = w.T
        for x, name in MLP.items():
            out[f"{theirs}.mlp.{name}.weight"] = params[f"{ours}.ffn.w_{x}"].T
        for ln, name in NORMS.items():
            out[f"{theirs}.{name}.weight"] = params[f"{ours}.{ln}.gamma"]
    out["model.norm.weight"] = params["decoder.norm.gamma"]
    if not cfg.tie_embeddings:
        out["lm_head.weight"] = params["generator.w"].T
    return {k: np.ascontiguousarray(v) for k, v in out.items()}


def from_state_dict(state: dict[str, np.ndarray], cfg: GptConfig,
                    vocab_size: int) -> dict[str, np.ndarray]:
    """The inverse of ``to_state_dict``, every name and shape checked first. A tied model's
    file may also hold lm_head.weight (transformers writes it as the same table)."""
    refuse_unless_llama(cfg)
    shapes = param_shapes(cfg, vocab_size)
    expected = to_state_dict({n: np.zeros(s) for n, (s, _) in shapes.items()}, cfg)
    state = _without_tied_head(state, cfg)
    _check(state, expected, cfg, vocab_size)
    ours = {"embed.weight": state["model.embed_tokens.weight"],
            "decoder.norm.gamma": state["model.norm.weight"]}
    if not cfg.tie_embeddings:
        ours["generator.w"] = state["lm_head.weight"].T
    for i in range(cfg.layers):
        ours |= _layer_as_ours(state, cfg, i)
    return {n: np.ascontiguousarray(ours[n], dtype=np.float64) for n in shapes}


def _layer_as_ours(state: dict, cfg: GptConfig, i: int) -> dict:
    ours, theirs = f"decoder.{i}", f"model.layers.{i}"
    out = {f"{ours}.self_attn.w_{x}": state[f"{theirs}.self_attn.{name}.weight"].T
           for x, name in ATTN.items()}
    for x in "qk":
        out[f"{ours}.self_attn.w_{x}"] = _qk_columns(out, cfg, f"{ours}.self_attn", x, True)
    out |= {f"{ours}.ffn.w_{x}": state[f"{theirs}.mlp.{name}.weight"].T for x, name in MLP.items()}
    out |= {f"{ours}.{ln}.gamma": state[f"{theirs}.{name}.weight"] for ln, name in NORMS.items()}
    return out


def _without_tied_head(state: dict, cfg: GptConfig) -> dict:
    if not (cfg.tie_embeddings and "lm_head.weight" in state):
        return state
    if not np.array_equal(state["lm_head.weight"], state.get("model.embed_tokens.weight")):
        raise WeightsError("the model ties its embeddings, but the file's lm_head.weight "
                           "differs from model.embed_tokens.weight; load it with "
                           "--no-tie-embeddings")
    return {k: v for k, v in state.items() if k != "lm_head.weight"}


def _check(state: dict, expected: dict, cfg: GptConfig, vocab_size: int) -> None:
    check_fits(state, expected, f"this Llama model ({cfg.layers} layers, tied "
               f"{cfg.tie_embeddings})", f"this model (d_model {cfg.d_model}, heads {cfg.heads}, "
               f"kv_heads {cfg.kv_heads}, d_ff {cfg.d_ff}, vocabulary {vocab_size})")
