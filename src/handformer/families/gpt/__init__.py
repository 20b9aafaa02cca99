"""A decoder-only Transformer (GPT-style), as a family: the encoder-decoder's decoder without
the encoder and the cross-attention, reading one text and predicting each next word.

config.py: sizes, presets and the options it takes;
model.py: parameters and the forward pass; run.py: options → model → tape → gradients (what the
pipeline calls); story.py and stack.py: the narration (the text and input; the layers).
"""

from __future__ import annotations

from ..registry import Family, register
from . import model, pretrained, run
from .config import PRESETS, GptConfig, from_options


def narrators(tape) -> list:
    """The story's narrators (story.py), imported when a tape is narrated."""
    if tape.meta.get("pretrained"):  # a known model read from its file (pretrained.py)
        from .smollm2_story import story as pretrained_story

        return pretrained_story(tape)
    from .story import story

    return story(tape)


def save_weights(path: str, model) -> None:
    """`walk --family gpt --save-weights` (weights.py, imported when it runs). A byte-level
    BPE vocabulary is refused: the file keeps tokens, not the merges that segment a text."""
    from ...errors import HandformerError
    from .weights import save

    if model.vocab.tokenizer == "bpe":
        raise HandformerError("--save-weights keeps the vocabulary's tokens but not byte-level "
                              "BPE's merges; keep a BPE model with `handformer train --family "
                              "gpt --tokenizer bpe --save FILE` (its checkpoint holds the merges)")

    save(path, model)


def export_names(tensors: dict, model) -> dict:
    """TorchGpt's names (weights.py), or LlamaForCausalLM's for the Llama recipe (llama.py);
    without attention biases none are listed (the weights file writes torch's zeros there, but
    the model has no such parameter to differentiate)."""
    from .weights import exported

    return exported(tensors, model.config, zero_biases=False)


def train_command(options: dict, given: dict[str, str]) -> None:
    """`handformer train --family gpt` (commands.py), imported when it runs."""
    from .commands import train

    train(options, given)


# The terminal walk's three closing commands, each (what it shows, the command).
NEXT_STEPS = (("gpt.recap.next.backward", "gpt.recap.next.backward.run"),
              ("gpt.recap.next.html", "gpt.recap.next.html.run"),
              ("gpt.recap.next.generate", "gpt.recap.next.generate.run"))

FAMILY = register(Family("gpt", GptConfig, model.param_shapes, model.forward, narrators,
                         prepare=run.prepare, walk=run.walk, backward=run.backward,
                         notes=run.notes, train=train_command, configure=from_options,
                         verify=run.verify, follows_tutorial=True, beside_trained=True,
                         save_weights=save_weights, export_names=export_names,
                         generates=True, next_token_loss=True,
                         next_steps={key: NEXT_STEPS for key in ("walk", "backward")},
                         pretrained_names=("smollm2-135m",), presets=PRESETS,
                         pretrained_app=pretrained))

