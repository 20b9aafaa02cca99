"""GGUF's block quantizations Q4_1 and Q8_0, dequantized by hand in NumPy: how a 4-bit file
holds a model's weights, and the numbers a walk of it computes with.

A row of weights is cut into blocks of 32 numbers, and each block is stored on its own:

    Q8_0 (34 bytes):  d (float16), then 32 signed bytes q₀ … q₃₁;       w_j = d · q_j
    Q4_1 (20 bytes):  d (float16), m (float16), then 16 bytes of nibbles;  w_j = d · q_j + m

In Q4_1 byte i holds two 4-bit numbers (0 … 15): its low nibble is q_i and its high nibble is
q_{i+16}. So a block keeps 32 weights in 20 bytes (5 bits each) instead of 64 (bfloat16): 16
levels between m (q = 0) and m + 15d (q = 15). ``block_by_hand`` tells one block's arithmetic.
"""

from __future__ import annotations

import numpy as np

from ...errors import WeightsError

BLOCK = 32  # weights per block, for both kinds
BYTES = {"Q8_0": 2 + BLOCK, "Q4_1": 2 + 2 + BLOCK // 2}


def _halves(raw: np.ndarray) -> np.ndarray:
    """Two bytes per row read as one little-endian float16, widened exactly to float64."""
    return np.ascontiguousarray(raw).view("<f2").astype(np.float64)


def _blocks(data: np.ndarray, kind: str) -> np.ndarray:
    """The tensor's bytes as (blocks, bytes per block)."""
    raw = np.ascontiguousarray(data).view(np.uint8)
    if raw.size % BYTES[kind]:
        raise WeightsError(f"a {kind} tensor of {raw.size} bytes is not a whole number of "
                           f"{BYTES[kind]}-byte blocks")
    return raw.reshape(-1, BYTES[kind])


def q8_0(data: np.ndarray, dtype="float64") -> np.ndarray:
    """Q8_0 blocks → the weights, one row per block: w = d · q (q a signed byte)."""
    blocks = _blocks(data, "Q8_0")
    d = _halves(blocks[:, :2])
    q = blocks[:, 2:].view(np.int8).astype(np.float64)
    return (d * q).astype(dtype)


def q4_1(data: np.ndarray, dtype="float64") -> np.ndarray:
    """Q4_1 blocks → the weights, one row per block: w = d · q + m, with q the low nibbles
    (weights 0 … 15 of the block) then the high ones (16 … 31)."""
    blocks = _blocks(data, "Q4_1")
    d, m = _halves(blocks[:, 0:2]), _halves(blocks[:, 2:4])
    packed = blocks[:, 4:]
    q = np.concatenate([packed & 0x0F, packed >> 4], axis=1).astype(np.float64)
    return (d * q + m).astype(dtype)


KINDS = {"Q8_0": q8_0, "Q4_1": q4_1}


def dequantize(data: np.ndarray, kind: str, shape: tuple[int, ...], dtype="float64") -> np.ndarray:
    """A GGUF tensor's bytes as an array of ``shape`` (rows outermost, as NumPy reads GGUF's
    reversed dimensions): F32 as it is, Q8_0 and Q4_1 dequantized block by block."""
    if kind == "F32":
        return np.asarray(data, dtype=np.float32).reshape(shape).astype(dtype)
    if kind not in KINDS:
        raise WeightsError(f"a tensor quantized as {kind} is not read (Q4_1, Q8_0 and F32 are)")
    return KINDS[kind](data, dtype).reshape(shape)


def block_by_hand(data: np.ndarray, kind: str, index: int = 0) -> dict:
    """One block's bytes and arithmetic, for the page: its scale d (and minimum m), its 32
    integers q and the 32 weights they give."""
    blocks = _blocks(data, kind)
    row = blocks[index]
    d = float(_halves(row[None, 0:2])[0, 0])
    if kind == "Q8_0":
        q = row[2:].view(np.int8).astype(int)
        m = 0.0
    else:
        m = float(_halves(row[None, 2:4])[0, 0])
        q = np.concatenate([row[4:] & 0x0F, row[4:] >> 4]).astype(int)
    weights = KINDS[kind](row[None], "float64")[0]
    return {"kind": kind, "block": index, "bytes": BYTES[kind], "hex": row.tobytes().hex(),
            "d": d, "m": m, "q": [int(v) for v in q], "w": [float(v) for v in weights]}
