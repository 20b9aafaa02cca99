"""A lone surrogate escape ("\\ud800") parses as JSON but is no character: a tape holding one
is refused on load, with one line, instead of failing in whichever writer meets it."""

from __future__ import annotations

import json

import pytest

from support.clirun import refused_unchanged

pytestmark = pytest.mark.process  # arguments as the OS hands them to a process


@pytest.mark.parametrize("fmt", ["html", "markdown", "json", "terminal", "xlsx"])
def test_a_tape_with_a_lone_surrogate_is_refused_on_load(made, tmp_path, tape, fmt):
    tape["vocab"][3] = "storm\ud800"
    (tmp_path / "t.json").write_text(json.dumps(tape), encoding="ascii")  # as \ud800
    refused_unchanged(tmp_path, "render", "t.json", "--format", fmt, "-o", f"out.{fmt}",
                      words=["surrogate"])
