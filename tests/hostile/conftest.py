"""Files every hostile case starts from, made once by the CLI itself (main(argv), in-process;
nothing committed)."""

import json
from pathlib import Path

import pytest

from support.clirun import run_here


@pytest.fixture(scope="session")
def made(tmp_path_factory) -> Path:
    """A folder with a tape (tape.json), weights (w.safetensors) and a checkpoint (c.ckpt)."""
    folder = tmp_path_factory.mktemp("made")
    for args in (["walk", "--format", "json", "-o", "tape.json"],
                 ["walk", "--steps", "1", "--save-weights", "w.safetensors"],
                 ["train", "--epochs", "2", "--quiet", "--save", "c.ckpt"]):
        result = run_here(*args, cwd=folder)
        assert result.returncode == 0, result.stderr
    return folder


@pytest.fixture
def tape(made) -> dict:
    return json.loads((made / "tape.json").read_text(encoding="utf-8"))
