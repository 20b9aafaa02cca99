"""A pretrained BERT-family sentence encoder (all-MiniLM-L6-v2 and its kin), as a family.

model.py: the config and the forward pass; ops.py: GELU, pooling and normalizing (its own ops
beyond the shared ones); wordpiece.py: its tokenizer; load.py: a model folder → config,
WordPiece and parameters, and sentences → a tape; finetune.py: one fine-tuning step on two
sentences (the loss 1 − cosine, the reverse pass, the update); story.py: the narration;
exercises.py: its own question kind (GELU).
"""

from __future__ import annotations

import numpy as np

from ...errors import HandformerError
from ..registry import Family, register
from . import exercises, finetune, load, model

DEFAULT_MODEL = "all-minilm-l6-v2"  # the model `walk --family bert` walks without --pretrained


def narrators(tape) -> list:
    """The story's narrators (story.py), imported when a tape is narrated."""
    from .story import story

    return story(tape)


def prepare(options: dict) -> load.Pretrained:
    """The model named by ``options["pretrained"]`` (a folder, or a known model's name;
    all-MiniLM-L6-v2 with `walk --family bert`). The folder brings the sizes, weights and
    vocabulary, so the options are the sentence (``src``) and, with ``backward``, the second
    sentence (``tgt``) of one fine-tuning step and its ``lr``; any other is refused."""
    if options.get("tokenizer") == "bpe" or options.get("bpe_merges") is not None:
        raise HandformerError("--tokenizer bpe: the bert family reads its own WordPiece "
                              "vocabulary from the model folder; walk byte-level BPE with "
                              "--family gpt")
    if not options.get("src"):
        raise HandformerError("--pretrained needs a sentence: --src \"...\"")
    step = bool(options.get("backward"))
    if step and not options.get("tgt"):
        raise HandformerError(
            "--backward with --pretrained takes one fine-tuning step that pulls two sentences' "
            "embeddings together (loss 1 − cosine): give the second one, --tgt \"...\"")
    if step and options.get("beside_trained"):
        raise HandformerError("--beside-trained shows the pretrained weights beside random ones "
                              "on one sentence, forward; drop --backward or --beside-trained")
    allowed = ("pretrained", "src", "lr", "preset", "beside_trained") + (
        ("tgt", "backward") if step else ())
    given = [k for k, v in options.items() if k not in allowed and v not in (None, False)]
    if options.get("preset") not in (None, "tutorial"):
        given.append("preset")
    if given:
        flags = ", ".join("--" + k.replace("_", "-") for k in sorted(given))
        raise HandformerError(
            f"--pretrained reads its sizes, weights and vocabulary from the model folder; it "
            f"walks one sentence (--src) forward, or with --backward one fine-tuning step on "
            f"two (--src, --tgt); drop {flags}")
    return load.load(options.get("pretrained") or DEFAULT_MODEL)


def walk(pretrained: load.Pretrained, options: dict):
    """One sentence forward; with ``backward``, the pair (src, tgt) and its loss; with
    ``beside_trained``, the sentence under random initial weights too."""
    if options.get("backward"):
        return finetune.pair_tape(pretrained, options["src"], options["tgt"])
    tape = load.run(pretrained, [options["src"]])
    if options.get("beside_trained"):  # the same architecture with random weights (beside.py)
        from .beside import random_beside

        tape.meta["beside_random"] = random_beside(pretrained, tape)
    return tape


def backward(tape, pretrained: load.Pretrained, options: dict) -> None:
    finetune.backward(tape, options.get("lr"))


def notes(pretrained: load.Pretrained, tape) -> list[str]:
    return load.unknown_warnings(tape)


def export_names(tensors: dict, pretrained: load.Pretrained) -> dict:
    """The BERT checkpoint's names as transformers writes them (load.hf_name), Linear weights
    transposed back to (d_out, d_in)."""
    out = {}
    for name, value in tensors.items():
        theirs, transposed = load.hf_name(name)
        out[theirs] = np.ascontiguousarray(value.T if transposed else value)
    return out


FAMILY = register(Family("bert", model.BertConfig, model.param_shapes, model.forward, narrators,
                         prepare=prepare, walk=walk, backward=backward, notes=notes,
                         pretrained=True, export_names=export_names, beside_trained=True,
                         pretrained_names=tuple(sorted(load.PACKAGED)),
                         exercises=exercises.KINDS))
