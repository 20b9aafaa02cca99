"""A pretrained BERT-family sentence encoder (bert.py), as a family."""

from __future__ import annotations

from .. import bert
from .registry import Family, register


def story(tape) -> list:
    from ..narrate.pretrained import story as told

    return told(tape)



def load(name_or_path: str, dtype: str = "float64"):
    """A checkpoint folder (or a known model's name): config, WordPiece and parameters."""
    from ..interop.pretrained import load as load_pretrained

    return load_pretrained(name_or_path, dtype)


FAMILY = register(Family("bert", bert.BertConfig, bert.param_shapes, bert.forward, story,
                         load))
