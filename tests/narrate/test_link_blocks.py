"""The overview's blocks point at the first section whose id is, or lies under, the block's id:
found through each section's dotted prefixes, as a scan of every section finds it."""

from __future__ import annotations

import pytest

import handformer
from handformer.narrate import build

BY_ID = {"prediction": "prediction", "generator": "generator.logits", "tgt_embed": "tgt.ids"}


def blocks(arch):
    for b in arch.blocks:
        yield b
        yield from children(b)


def children(block):
    for c in block.children:
        yield c
        yield from children(c)


@pytest.mark.parametrize("family", ["transformer", "gpt"])
def test_every_block_points_at_the_first_section_under_it(family):
    sections = build(handformer.walk(backward=True, family=family), "en", "all")
    arch = next(s.architecture for s in sections if s.architecture)
    for block in blocks(arch):
        wanted = BY_ID.get(block.id, block.id)
        found = next((s for s in sections if s.id == wanted or s.id.startswith(wanted + ".")),
                     None)
        assert block.section == (found.id if found else "")
        if found:
            assert block.number == found.prefix.strip(" ·")
