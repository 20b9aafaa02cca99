"""A Hugging Face model folder for the Llama recipe: ``model.safetensors`` under
LlamaForCausalLM's names (llama.py) and a ``config.json`` that ``transformers.LlamaConfig``
reads, so ``LlamaForCausalLM.from_pretrained(folder, dtype=torch.float64)`` takes it.

config.json holds Hugging Face's fields and, under ``handformer``, our config and vocabulary,
which `--weights FOLDER` reads back. A folder without them (saved by transformers) is read from
Hugging Face's fields alone, with the dataset's vocabulary: half pairs (rotate_half's), seed 0.
"""

from __future__ import annotations

import json
from pathlib import Path

from ...errors import ConfigError, WeightsError
from ...text import END, START
from .config import GptConfig
from .llama import from_state_dict, refuse_unless_llama, to_state_dict

WEIGHTS, CONFIG = "model.safetensors", "config.json"
# Hugging Face's fields that fix the architecture: a handformer config must say the same.
ARCHITECTURE = ("hidden_size", "intermediate_size", "num_attention_heads",
                "num_key_value_heads", "head_dim", "num_hidden_layers", "rms_norm_eps",
                "max_position_embeddings", "tie_word_embeddings")


def hf_fields(cfg: GptConfig) -> dict:
    """LlamaConfig's fields for ``cfg``: rope_parameters as transformers 5 reads them, and
    rope_theta, transformers 4's key for the same base."""
    return {"hidden_size": cfg.d_model, "intermediate_size": cfg.d_ff,
            "num_attention_heads": cfg.heads, "num_key_value_heads": cfg.kv_heads,
            "head_dim": cfg.d_k, "num_hidden_layers": cfg.layers, "rms_norm_eps": cfg.ln_eps,
            "max_position_embeddings": cfg.max_len, "tie_word_embeddings": cfg.tie_embeddings,
            "rope_parameters": {"rope_type": "default", "rope_theta": cfg.rope_base},
            "rope_theta": cfg.rope_base}


def config_json(cfg: GptConfig, vocab) -> dict:
    from ...interop.weights import FORMAT

    return {"architectures": ["LlamaForCausalLM"], "model_type": "llama", **hf_fields(cfg),
            "vocab_size": len(vocab), "hidden_act": "silu", "attention_bias": False,
            "mlp_bias": False, "attention_dropout": 0.0, "dtype": "float64",
            "torch_dtype": "float64", "bos_token_id": vocab.id(START),
            "eos_token_id": vocab.id(END), "pad_token_id": None,
            "handformer": {"format": FORMAT, "family": "gpt", "config": cfg.to_dict(),
                           "vocab": list(vocab.tokens), "specials": list(vocab.specials)}}


def save(path, model) -> None:
    """The folder (made if missing, its parent must exist): model.safetensors, then
    config.json, each written atomically."""
    from ...files.io import atomic_write, check_output
    from ...interop.weights import write_state

    refuse_unless_llama(model.config)
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise WeightsError(f"{str(path)!r} is a file, but a Llama model without the "
                           f".safetensors suffix is written as a Hugging Face folder; give a "
                           f"folder name, or a name ending in .safetensors for one file")
    for target in [folder / WEIGHTS, folder / CONFIG] if folder.is_dir() else [folder]:
        check_output(target)
    folder.mkdir(exist_ok=True)
    write_state(folder / WEIGHTS, to_state_dict(model.params, model.config), {"format": "pt"})
    atomic_write(folder / CONFIG, json.dumps(config_json(model.config, model.vocab), indent=2,
                                             ensure_ascii=False) + "\n")


def load(path, config: GptConfig, vocab):
    """(params, config, vocabulary) from a folder: ours from config.json's ``handformer``
    entry, checked against Hugging Face's fields, or Hugging Face's alone."""
    from ...interop.weights import read_weights

    folder = Path(path)
    fields = _read_config(folder)
    if not (folder / WEIGHTS).is_file():
        raise WeightsError(f"{str(path)!r} holds no {WEIGHTS} (a checkpoint split into shards "
                           f"is not read)")
    ours = fields.get("handformer")
    config, vocab = _ours(ours, path) if isinstance(ours, dict) else (_from_hf(fields), vocab)
    _same_architecture(fields, config, len(vocab), path)
    tensors, _ = read_weights(folder / WEIGHTS)
    return from_state_dict(tensors, config, len(vocab)), config, vocab


def _read_config(folder: Path) -> dict:
    from ...files.io import read_bytes
    from ...textsafe import json_loads

    raw = read_bytes(folder / CONFIG, "the folder's config.json", WeightsError, streams=False)
    try:
        fields = json_loads(raw.decode("utf-8"), "config.json", WeightsError)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise WeightsError(f"{str(folder / CONFIG)!r} is not readable JSON: {err}") from None
    if not isinstance(fields, dict):
        raise WeightsError(f"{str(folder / CONFIG)!r} holds no JSON object")
    return fields


def _ours(entry: dict, path):
    from ...interop.weights import listed_vocab

    try:
        config = GptConfig.from_dict(entry["config"])
        vocab = listed_vocab({k: json.dumps(entry[k]) for k in ("vocab", "specials")})
    except (KeyError, TypeError, ConfigError) as err:
        raise WeightsError(f"{str(path)!r}: config.json's handformer entry is unreadable: "
                           f"{err}") from None
    return config, vocab


def _from_hf(fields: dict) -> GptConfig:
    """A config from Hugging Face's fields alone (the Llama recipe, its pairs rotate_half's)."""
    rope = fields.get("rope_parameters") or {"rope_theta": fields.get("rope_theta", 10000.0)}
    unsupported = [(k, v) for k, v in (("hidden_act", fields.get("hidden_act", "silu")),
                                       ("rope_type", rope.get("rope_type", "default")),
                                       ("attention_bias", fields.get("attention_bias", False)),
                                       ("mlp_bias", fields.get("mlp_bias", False)),
                                       ("rope_scaling", fields.get("rope_scaling")))
                   if v not in ("silu", "default", False, None)]
    if unsupported:
        raise WeightsError(f"config.json asks for {unsupported[0][0]} {unsupported[0][1]!r}, "
                           f"which the gpt family's Llama recipe does not have")
    try:
        return GptConfig(preset="custom", d_model=fields["hidden_size"],
                         heads=fields["num_attention_heads"],
                         kv_heads=fields.get("num_key_value_heads"), d_k=fields.get("head_dim"),
                         d_ff=fields["intermediate_size"], layers=fields["num_hidden_layers"],
                         ln_eps=fields.get("rms_norm_eps", 1e-6), rope_base=rope["rope_theta"],
                         max_len=fields.get("max_position_embeddings", 64),
                         tie_embeddings=fields.get("tie_word_embeddings", False), pos="rope",
                         norm_kind="rms", ffn="swiglu")
    except (KeyError, TypeError) as err:
        raise WeightsError(f"config.json lacks or garbles a Llama field: {err}") from None
    except ConfigError as err:
        raise WeightsError(f"config.json describes a model the gpt family cannot build: "
                           f"{err}") from None


def _same_architecture(fields: dict, config: GptConfig, vocab_size: int, path) -> None:
    want = hf_fields(config) | {"vocab_size": vocab_size}
    for key in (*ARCHITECTURE, "vocab_size"):
        if key in fields and fields[key] != want[key]:
            raise WeightsError(f"{str(path)!r}: config.json's {key} is {fields[key]!r}, but "
                               f"the model it describes needs {want[key]!r}")
    theta = (fields.get("rope_parameters") or {}).get("rope_theta", fields.get("rope_theta"))
    if theta is not None and theta != config.rope_base:  # NaN is never equal: refused too
        raise WeightsError(f"{str(path)!r}: config.json's rope_theta is {theta!r}, but the "
                           f"model it describes turns q and k with base {config.rope_base!r}")
