"""Q4_1 and Q8_0 dequantized by hand (families/gpt/quants.py): against blocks written by hand
in the test, and against the gguf package's own dequantize on the real file's tensors."""

from __future__ import annotations

import numpy as np
import pytest

from handformer.errors import WeightsError
from handformer.families.gpt import quants

from .smollm2_file import gguf_path

# The 98 MB model file is read (seconds) by every module here: make test, not make check.
pytestmark = pytest.mark.slow


def _half(x: float) -> bytes:
    return np.float16(x).tobytes()


def test_q4_1_block_by_hand():
    # d = 0.5, m = -2; byte i holds q_i (low nibble) and q_{i+16} (high nibble).
    low, high = list(range(16)), [15 - i for i in range(16)]
    packed = bytes(lo | (hi << 4) for lo, hi in zip(low, high, strict=True))
    block = np.frombuffer(_half(0.5) + _half(-2.0) + packed, dtype=np.uint8)
    w = quants.q4_1(block)[0]
    expected = [0.5 * q - 2.0 for q in low + high]  # w = d·q + m
    assert w.tolist() == expected
    told = quants.block_by_hand(block, "Q4_1")
    assert (told["d"], told["m"], told["q"]) == (0.5, -2.0, low + high)


def test_q8_0_block_by_hand():
    q = [-128, -1, 0, 1, 127] + [3] * 27
    block = np.frombuffer(_half(0.25) + np.array(q, dtype=np.int8).tobytes(), dtype=np.uint8)
    assert quants.q8_0(block)[0].tolist() == [0.25 * v for v in q]


def test_a_partial_block_is_refused_in_one_line():
    with pytest.raises(WeightsError, match="20-byte blocks"):
        quants.q4_1(np.zeros(30, dtype=np.uint8))


@pytest.fixture(scope="module")
def tensors():
    from handformer.families.gpt.gguf_model import reader as parsed

    reader = parsed(gguf_path())
    wanted = {"token_embd.weight", "blk.0.attn_q.weight", "blk.29.ffn_down.weight",
              "blk.3.attn_norm.weight"}
    return [t for t in reader.tensors if t.name in wanted]


def test_dequantized_as_the_gguf_package_does(tensors):
    from gguf.quants import dequantize as theirs

    assert sorted(t.tensor_type.name for t in tensors) == ["F32", "Q4_1", "Q4_1", "Q8_0"]
    for t in tensors:
        shape = tuple(int(n) for n in reversed(t.shape))
        ours = quants.dequantize(t.data, t.tensor_type.name, shape, "float64")
        reference = theirs(t.data, t.tensor_type).reshape(shape)
        # Ours in float64 is exact (d·q + m of float16s); theirs rounds to float32.
        assert ours.shape == reference.shape
        np.testing.assert_allclose(ours, reference, rtol=1e-7, atol=0)
        assert np.array_equal(ours.astype(np.float32), reference)


def test_the_file_parses_as_the_gguf_packages_own_reader_parses_it():
    """gguf_model.reader reads through a plain array over the mapping (for speed): every field
    and every tensor (name, type, shape, bytes) as GGUFReader itself gives them."""
    from gguf import GGUFReader

    from handformer.families.gpt.gguf_model import reader as parsed

    ours, theirs = parsed(gguf_path()), GGUFReader(str(gguf_path()))
    assert type(ours) is not GGUFReader  # else this compares the reader with itself
    assert list(ours.fields) == list(theirs.fields)
    for name, field in theirs.fields.items():
        assert ours.fields[name].contents() == field.contents(), name
        assert ours.fields[name].types == field.types, name
    assert ours.data_offset == theirs.data_offset
    assert len(ours.tensors) == len(theirs.tensors) == 272
    for a, b in zip(ours.tensors, theirs.tensors, strict=True):
        assert (a.name, a.tensor_type, list(a.shape), a.data_offset) == \
               (b.name, b.tensor_type, list(b.shape), b.data_offset)
        assert a.data.dtype == b.data.dtype and np.array_equal(a.data, b.data), a.name
