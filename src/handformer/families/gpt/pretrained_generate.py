"""`handformer generate --pretrained smollm2-135m "PROMPT"`: the pretrained model continues a
prompt with the key/value cache and the sampling switches of `walk --generate` (generation.py,
by way of pretrained.walk, so the command writes what the walk shows), ``--chat`` wraps the
prompt in the model's chat template, ``--explain`` renders the walk of the first new token.

The chat template is the one the GGUF file carries (``tokenizer.chat_template``, ChatML): a
system turn (the file's own default system message), the user's turn, then the assistant's
turn opened for the model to fill. It is filled here by hand, not by a template engine; a test
renders the file's template with Jinja and compares.
"""

from __future__ import annotations

import re

from ...errors import HandformerError, PretrainedError

# The options of `generate` that build or train a model of its own.
OWN_MODEL = ("checkpoint", "train_steps", "lr", "corpus", "tokenizer", "bpe_merges", "preset")
_SYSTEM = re.compile(r"'<\|im_start\|>system\n(.*?)<\|im_end\|>\n' \}\}", re.S)


def chat_prompt(template: str | None, prompt: str) -> str:
    """The prompt as the user's one turn of a ChatML conversation, with the template's own
    default system message, and the assistant's turn opened."""
    found = _SYSTEM.search(template or "")
    if not found or "<|im_start|>' + message['role']" not in template:
        raise PretrainedError("--chat: the model file's chat template is not the ChatML one "
                              "this command fills in")
    return (f"<|im_start|>system\n{found.group(1)}<|im_end|>\n"
            f"<|im_start|>user\n{prompt}<|im_end|>\n<|im_start|>assistant\n")


def refuse_own_model(given: dict) -> None:
    named = [k for k in OWN_MODEL if given.get(k) is not None]
    if named:
        raise HandformerError(f"--pretrained brings its own weights and vocabulary; drop "
                              f"--{named[0].replace('_', '-')}")


def generate(name: str, prompt: str, chat: bool, max_new: int, sampling: dict,
             dtype: str | None = None):
    """The walk's tape of the prompt and its continuation (``tape.meta["generate"]``), and
    the text written."""
    from .pretrained import prepare, walk

    model = prepare({"pretrained": name, "dtype": dtype})
    text = chat_prompt(model.pretrained["chat_template"], prompt) if chat else prompt
    tape = walk(model, {"src": text, "generate": max_new, **sampling})
    told = tape.meta["generate"]
    ids = [i for i in told["ids"] if i != model.vocab.end_id]
    return tape, model.vocab.joined(model.vocab.decode(ids))
