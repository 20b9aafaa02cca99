"""The decoder-only model's weights in and out as safetensors, under the state_dict names of the
torch model `verify --family gpt` builds (torch_ref.TorchGpt), so that
``TorchGpt.load_state_dict(file, strict=True)`` takes a file --save-weights wrote.

    embed                                   E, (vocab, d_model)
    layers.{i}.self_attn.in_proj_weight     [W_Qᵀ; W_Kᵀ; W_Vᵀ]    in_proj_bias  [b_Q; b_K; b_V]
    layers.{i}.self_attn.out_proj.weight    W_Oᵀ                  out_proj.bias b_O
    layers.{i}.linear1.weight / .bias       W_1ᵀ, b_1             linear2: W_2ᵀ, b_2
    layers.{i}.norm1 / norm2 .weight .bias  γ, β of ln1 and ln2 (before or after the sublayer)
    final.weight / .bias                    the final norm's γ, β (only with a final norm)
    w_out                                   W_out, (d_model, vocab) (only untied)

Note: torch's attention always has its biases; a model without them (``attn_bias`` off, the
default) writes zeros there, and reading refuses a file whose biases are not zero.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ...errors import WeightsError
from .config import GptConfig
from .model import param_shapes


def to_state_dict(params: dict[str, np.ndarray], cfg: GptConfig,
                  zero_biases: bool = True) -> dict[str, np.ndarray]:
    """Our flat parameters under TorchGpt's names and layouts (torch keeps Linear weights
    transposed, W_Q, W_K, W_V packed in one). ``zero_biases``: without attention biases, write
    torch's as zeros (a weights file), or leave them out (gradients: the model has none)."""
    out = {"embed": params["embed.weight"]}
    for i in range(cfg.layers):
        out |= _layer(params, cfg, i)
        if not (cfg.attn_bias or zero_biases):
            del out[f"layers.{i}.self_attn.in_proj_bias"], out[f"layers.{i}.self_attn.out_proj.bias"]
    if cfg.final_norm:
        out |= {"final.weight": params["decoder.norm.gamma"],
                "final.bias": params["decoder.norm.beta"]}
    if not cfg.tie_embeddings:
        out["w_out"] = params["generator.w"]
    return {k: np.ascontiguousarray(v) for k, v in out.items()}


def _layer(params: dict, cfg: GptConfig, i: int) -> dict:
    ours, theirs = f"decoder.{i}", f"layers.{i}"
    attn = f"{ours}.self_attn"
    out = {f"{theirs}.self_attn.in_proj_weight":
           np.concatenate([params[f"{attn}.w_{x}"].T for x in "qkv"]),
           f"{theirs}.self_attn.in_proj_bias": np.concatenate([_bias(params, cfg, attn, x)
                                                               for x in "qkv"]),
           f"{theirs}.self_attn.out_proj.weight": params[f"{attn}.w_o"].T,
           f"{theirs}.self_attn.out_proj.bias": _bias(params, cfg, attn, "o")}
    for n in "12":
        out[f"{theirs}.linear{n}.weight"] = params[f"{ours}.ffn.w_{n}"].T
        out[f"{theirs}.linear{n}.bias"] = params[f"{ours}.ffn.b_{n}"]
        out[f"{theirs}.norm{n}.weight"] = params[f"{ours}.ln{n}.gamma"]
        out[f"{theirs}.norm{n}.bias"] = params[f"{ours}.ln{n}.beta"]
    return out


def _bias(params: dict, cfg: GptConfig, attn: str, which: str) -> np.ndarray:
    """An attention bias, or zeros of its width when the model has none (torch's always does)."""
    if cfg.attn_bias:
        return params[f"{attn}.b_{which}"]
    return np.zeros(params[f"{attn}.w_{which}"].shape[1])


def from_state_dict(state: dict[str, np.ndarray], cfg: GptConfig,
                    vocab_size: int) -> dict[str, np.ndarray]:
    """The inverse of ``to_state_dict``: every name and shape checked first."""
    shapes = param_shapes(cfg, vocab_size)
    expected = to_state_dict({n: np.zeros(s) for n, (s, _) in shapes.items()}, cfg)
    _check_names_and_shapes(state, expected, cfg, vocab_size)
    if not cfg.attn_bias:
        _refuse_nonzero_biases(state)
    mirror = _as_ours(state, cfg)
    return {n: np.ascontiguousarray(mirror[n], dtype=np.float64) for n in shapes}


def _check_names_and_shapes(state: dict, expected: dict, cfg: GptConfig, vocab_size: int):
    check_fits(state, expected, f"this gpt model (norm {cfg.norm}, final norm {cfg.final_norm}, "
               f"tied {cfg.tie_embeddings})", f"this gpt model (d_model {cfg.d_model}, heads "
               f"{cfg.heads}, d_ff {cfg.d_ff}, vocabulary {vocab_size})")


def check_fits(state: dict, expected: dict, model: str, sized: str) -> None:
    """Every tensor ``expected`` names is in ``state`` with its shape, and nothing more;
    otherwise one line: what is missing or extra (as ``model`` is built), or the first shape
    that differs (as ``sized`` is sized)."""
    missing, extra = sorted(set(expected) - set(state)), sorted(set(state) - set(expected))
    if missing or extra:
        parts = [f"missing {len(missing)} tensor(s), e.g. {', '.join(missing[:3])}"] if missing else []
        parts += [f"{len(extra)} unexpected tensor(s), e.g. {', '.join(extra[:3])}"] if extra else []
        raise WeightsError(f"the weights do not fit {model}: " + "; ".join(parts))
    for name, want in expected.items():
        if tuple(state[name].shape) != want.shape:
            raise WeightsError(f"tensor {name!r} has shape {tuple(state[name].shape)}, but "
                               f"{sized} needs {want.shape}")


def _refuse_nonzero_biases(state: dict) -> None:
    for name, value in state.items():
        if name.endswith(("in_proj_bias", "out_proj.bias")) and np.any(value != 0):
            raise WeightsError(f"tensor {name!r} is not zero, but this model has no attention "
                               f"biases; load it with --attn-bias")


def _as_ours(state: dict, cfg: GptConfig) -> dict[str, np.ndarray]:
    """Every tensor of the file under our names and layouts (the packed in_proj split)."""
    qk = cfg.heads * cfg.d_k
    ours = {"embed.weight": state["embed"]}
    if "w_out" in state:
        ours["generator.w"] = state["w_out"]
    if "final.weight" in state:
        ours |= {"decoder.norm.gamma": state["final.weight"], "decoder.norm.beta": state["final.bias"]}
    for i in range(cfg.layers):
        p, t = f"decoder.{i}", f"layers.{i}.self_attn"
        packed, bias = state[f"{t}.in_proj_weight"], state[f"{t}.in_proj_bias"]
        for x, (lo, hi) in zip("qkv", ((0, qk), (qk, 2 * qk), (2 * qk, len(packed))), strict=True):
            ours[f"{p}.self_attn.w_{x}"], ours[f"{p}.self_attn.b_{x}"] = packed[lo:hi].T, bias[lo:hi]
        ours[f"{p}.self_attn.w_o"] = state[f"{t}.out_proj.weight"].T
        ours[f"{p}.self_attn.b_o"] = state[f"{t}.out_proj.bias"]
        for n in "12":
            ours[f"{p}.ffn.w_{n}"] = state[f"layers.{i}.linear{n}.weight"].T
            ours[f"{p}.ffn.b_{n}"] = state[f"layers.{i}.linear{n}.bias"]
            ours[f"{p}.ln{n}.gamma"] = state[f"layers.{i}.norm{n}.weight"]
            ours[f"{p}.ln{n}.beta"] = state[f"layers.{i}.norm{n}.bias"]
    return ours


# --- files ----------------------------------------------------------------------------------


def save(path, model) -> None:
    """`walk --family gpt --save-weights FILE`: the weights, with the config and vocabulary in
    the metadata (family "gpt"), written atomically. A model with the parts of today's LLMs
    is written under Hugging Face's Llama names (llama.py): one file when the name ends in
    .safetensors, else a Hugging Face folder (llama_folder.py)."""
    from ...interop.weights import FORMAT, write_state

    if model.config.modern and not str(path).endswith(".safetensors"):
        from .llama_folder import save as save_folder

        return save_folder(path, model)
    vocab = model.vocab
    meta = {"format": FORMAT, "family": "gpt", "config": json.dumps(model.config.to_dict()),
            "vocab": json.dumps(vocab.tokens), "specials": json.dumps(list(vocab.specials))}
    write_state(path, exported(model.params, model.config), meta)


def exported(params: dict, cfg: GptConfig, zero_biases: bool = True) -> dict:
    """The plain model under TorchGpt's names; one with the parts of today's LLMs under
    LlamaForCausalLM's (refused by name unless it is the Llama recipe)."""
    if cfg.modern:
        from .llama import to_state_dict as llama_names

        return llama_names(params, cfg)
    return to_state_dict(params, cfg, zero_biases)


def load(path, config: GptConfig, vocab):
    """(params, config, vocabulary) from a file: its own config and vocabulary when
    --save-weights wrote it, else ``config`` and ``vocab`` (a state_dict saved from torch)."""
    from ...errors import ConfigError
    from ...interop.weights import FORMAT, family_metadata, listed_vocab, read_weights

    if Path(path).is_dir():
        from .llama_folder import load as load_folder

        return load_folder(path, config, vocab)
    tensors, meta = read_weights(path)
    family_metadata(meta, "gpt", path)
    if meta.get("format") == FORMAT:
        try:
            config = GptConfig.from_dict(json.loads(meta["config"]))
        except (json.JSONDecodeError, KeyError, TypeError, ConfigError) as err:
            raise WeightsError(f"{str(path)!r} has unreadable handformer metadata: {err}") from None
        vocab = listed_vocab(meta) or vocab
    if config.modern or "model.embed_tokens.weight" in tensors:
        from .llama import from_state_dict as from_llama_names

        return from_llama_names(tensors, config, len(vocab)), config, vocab
    return from_state_dict(tensors, config, len(vocab)), config, vocab
