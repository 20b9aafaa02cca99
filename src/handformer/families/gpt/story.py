"""The walkthrough of the decoder-only model (tape.meta["family"] == "gpt")."""

from __future__ import annotations


def story(tape) -> list:
    return []
