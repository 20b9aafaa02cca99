"""The encoder-decoder's declarations: its presets' names and its config's sizes and switches,
from which the command line makes the model flags every model command takes (``--d-model``,
``--final-norm/--no-final-norm``, …) with their --help lines, and the web app checks a
request's config fields (families/registry.Option, registry.size_options). A light module: the
command line reads it at start-up, without importing the family."""

from __future__ import annotations

from ..declarations import Option

PRESETS = ("tutorial", "small", "paper")  # config.PRESETS's names (a test holds them equal)

SIZE, RATE = dict(kind=int, lo=1), dict(kind=float, lo=0.0, hi=1.0, lo_open=False, hi_open=True)

# The config's fields in its order (config.Config; a test holds them equal), and --layers, a
# shorthand for both stacks. Other families built from a preset read these flags under the
# same names or refuse them with their reason (their configure).
SIZES = (
    Option("layers", "encoder and decoder layers (N)", sets=("encoder_layers", "decoder_layers"),
           **SIZE),
    Option("d_model", "embedding width d_model", **SIZE),
    Option("heads", "attention heads (encoder; decoder too unless --decoder-heads)", **SIZE),
    Option("decoder_heads", "attention heads in the decoder", **SIZE),
    Option("d_k", "query/key width per head", **SIZE),
    Option("d_v", "value width per head", **SIZE),
    Option("d_ff", "feed-forward hidden width", **SIZE),
    Option("encoder_layers", "encoder layers", **SIZE),
    Option("decoder_layers", "decoder layers", **SIZE),
    Option("ffn", "feed-forward: 'single' (one linear + ReLU, the tutorial), 'paper' (two "
           "linears) or 'swiglu' ((SiLU(X W_gate) ⊙ X W_up) W_down, Llama; --family gpt)"),
    Option("attn_bias", "biases in the attention projections", kind=bool),
    Option("scale_embeddings", "multiply embeddings by √d_model", kind=bool),
    Option("final_norm", "one more LayerNorm after each stack (as torch.nn.Transformer)",
           kind=bool),
    Option("norm", "'post': LN(x + Sublayer(x)), the paper; 'pre': x + Sublayer(LN(x)), GPT-2"),
    Option("tie_embeddings", "one table for the embeddings and the output layer (W_out = Eᵀ, "
           "§3.4)", kind=bool),
    Option("init", "initial weights: 'uniform' [0, 1) or 'xavier'"),
    Option("ln_eps", "layer-norm ε", kind=float, lo=0.0),
    Option("max_len", "longest sentence the model takes", **SIZE),
    Option("dropout", "dropout rate (training only)", **RATE),
    Option("label_smoothing", "label smoothing ε of the loss", **RATE),
    # numpy's seeds; the command line refuses any other itself (cli_checks.SEED, every
    # command's seed alike)
    Option("seed", "random seed of the initial weights", kind=int, lo=0, hi=2**32 - 1,
           checked=True),
)

OPTIONS = ()  # no switch beyond its config's fields

# What this family adds to shared flags' --help lines and messages (registry.notes_for):
# flag or message → clause. `verify --reference` chooses among its torch models.
NOTES = {
    "reference": "nn: torch.nn.Transformer; functional: the same model written with torch's "
                 "functions (any config, e.g. the tutorial preset's d_k 4 with d_model 6); "
                 "auto: nn where it can build the config, else functional",
    "verify": "transformer: against torch.nn.Transformer; another family against its own "
              "torch model",
}
