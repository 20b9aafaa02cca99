"""A pretrained BERT-family sentence encoder (all-MiniLM-L6-v2 and its kin), as a family.

model.py: the config and the forward pass; ops.py: GELU, pooling and normalizing (its own ops
beyond the shared ones); wordpiece.py: its tokenizer; load.py: a model folder → config,
WordPiece and parameters, and sentences → a tape; story.py: the narration.
"""

from __future__ import annotations

from ...errors import HandformerError
from ..registry import Family, register
from . import load, model

DEFAULT_MODEL = "all-minilm-l6-v2"  # the model `walk --family bert` walks without --pretrained


def narrators(tape) -> list:
    """The story's narrators (story.py), imported when a tape is narrated."""
    from .story import story

    return story(tape)


def prepare(options: dict) -> load.Pretrained:
    """The model named by ``options["pretrained"]`` (a folder, or a known model's name;
    all-MiniLM-L6-v2 with `walk --family bert`); every other option is refused, since the
    folder brings the sizes, weights and vocabulary."""
    if not options.get("src"):
        raise HandformerError("--pretrained needs a sentence: --src \"...\"")
    given = [k for k, v in options.items() if k not in ("pretrained", "src", "lr", "preset")
             and v not in (None, False)]
    if options.get("preset") not in (None, "tutorial"):
        given.append("preset")
    if given:
        flags = ", ".join("--" + k.replace("_", "-") for k in sorted(given))
        raise HandformerError(
            f"--pretrained reads its sizes, weights and vocabulary from the model folder, and "
            f"walks one sentence forward only; drop {flags}")
    return load.load(options.get("pretrained") or DEFAULT_MODEL)


def walk(pretrained: load.Pretrained, options: dict):
    return load.run(pretrained, [options["src"]])


def notes(pretrained: load.Pretrained, tape) -> list[str]:
    return load.unknown_warnings(tape)


FAMILY = register(Family("bert", model.BertConfig, model.param_shapes, model.forward, narrators,
                         prepare=prepare, walk=walk, notes=notes, pretrained=True))
