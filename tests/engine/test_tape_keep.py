"""Tape.keep: an elided walk drops steps, and what it keeps is still found by name."""

from __future__ import annotations

import numpy as np

from handformer.engine.tape import Tape


def test_keep_drops_the_refused_steps_from_the_list_and_the_index():
    tape = Tape()
    for name in ("a.out", "b.hidden", "c.out"):
        tape.constant(name, np.ones((2, 2)))
    tape.keep(lambda name: name.endswith(".out"))
    assert tape.names() == ["a.out", "c.out"]
    assert "b.hidden" not in tape and "c.out" in tape
    assert np.array_equal(tape.value("a.out"), np.ones((2, 2)))
