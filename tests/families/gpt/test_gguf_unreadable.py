"""A GGUF file that is not one (empty, cut short, random bytes, counts past its end, a key twice)
is refused in one line naming the file, never a traceback from inside the reader."""

from __future__ import annotations

import struct

import pytest

pytest.importorskip("gguf", reason="needs gguf (pip install -e '.[smollm2]')")

from handformer.errors import PretrainedError  # noqa: E402
from handformer.families.gpt import gguf_model  # noqa: E402


def header(tensors: int, keys: int) -> bytes:
    return b"GGUF" + struct.pack("<IQQ", 3, tensors, keys)


def string(text: str) -> bytes:
    return struct.pack("<Q", len(text)) + text.encode()


def u32_key(name: str, value: int) -> bytes:
    return string(name) + struct.pack("<II", 4, value)  # 4: GGUF's UINT32


CASES = {
    "empty": b"",
    "random": bytes(range(256)) * 4,
    "cut": header(0, 1) + string("general.architecture")[:10],
    "counts past the end": header(2**62, 2**62),
    "a key twice": header(0, 2) + u32_key("general.alignment", 32) * 2,
}


@pytest.mark.parametrize("case", list(CASES))
def test_an_unreadable_file_is_refused_naming_it(tmp_path, case):
    path = tmp_path / "model.gguf"
    path.write_bytes(CASES[case])
    gguf_model.reader.cache_clear()
    try:
        with pytest.raises(PretrainedError, match="is not a readable GGUF file") as err:
            gguf_model.load(path)
    finally:
        gguf_model.reader.cache_clear()
    assert str(path) in str(err.value) and "\n" not in str(err.value)
