"""A safetensors file read header first: names, dtypes and shapes are checked before a single
tensor is decoded, and only the tensors asked for are decoded at all.

safetensors.numpy decodes every tensor (an unused 450 MB bool tensor too, then cast to float64
by the caller) and has no bfloat16 (``KeyError: 'BF16'``). Here bfloat16 is read exactly (its
16 bits are the top half of a float32), float16 and float32 as NumPy reads them, and any other
dtype of a weight is refused by name, from the header.
"""

from __future__ import annotations

import json
import math

import numpy as np

FLOATS = {"F64": np.float64, "F32": np.float32, "F16": np.float16, "BF16": None}
OTHERS = {"I64": np.int64, "I32": np.int32, "I16": np.int16, "I8": np.int8, "U8": np.uint8,
          "U16": np.uint16, "U32": np.uint32, "U64": np.uint64, "BOOL": np.bool_}
_HEADER_MAX = 100 * 2**20  # safetensors' own bound on the header's size


class TensorFileError(ValueError):
    """A safetensors file whose header or data cannot be read as it says."""


def header(raw: bytes) -> tuple[dict, dict]:
    """(tensor name → {"dtype", "shape", "data_offsets"}, the metadata) from the header."""
    if len(raw) < 8:
        raise TensorFileError("file too short")
    n = int.from_bytes(raw[:8], "little")
    if n > min(_HEADER_MAX, len(raw) - 8):
        raise TensorFileError(f"its header claims {n:,} bytes")
    try:
        entries = json.loads(raw[8:8 + n].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as err:
        raise TensorFileError(f"its header is not JSON: {err}") from None
    if not isinstance(entries, dict):
        raise TensorFileError("its header is not a JSON object")
    meta = entries.pop("__metadata__", None) or {}
    for name, entry in entries.items():
        _check_entry(name, entry, len(raw) - 8 - n)
    return entries, meta


def _check_entry(name: str, entry, data_size: int) -> None:
    if not isinstance(entry, dict) or entry.get("dtype") not in {**FLOATS, **OTHERS}:
        raise TensorFileError(f"tensor {name!r} has no dtype this reader knows")
    shape, offsets = entry.get("shape"), entry.get("data_offsets")
    if not (isinstance(shape, list) and all(isinstance(d, int) and d >= 0 for d in shape)
            and isinstance(offsets, list) and len(offsets) == 2
            and all(isinstance(o, int) for o in offsets)):
        raise TensorFileError(f"tensor {name!r} has a malformed shape or offsets")
    start, end = offsets
    if not 0 <= start <= end <= data_size or end - start != math.prod(shape) * _size(entry):
        raise TensorFileError(f"tensor {name!r}: its offsets do not match its shape")


def _size(entry: dict) -> int:
    kind = FLOATS.get(entry["dtype"]) or OTHERS.get(entry["dtype"])
    return 2 if entry["dtype"] == "BF16" else np.dtype(kind).itemsize


def refuse_non_floats(entries: dict, error: type[Exception], where: str) -> None:
    """Weights are floating point: any other dtype is refused by the header, unread."""
    for name, entry in entries.items():
        if entry["dtype"] not in FLOATS:
            raise error(f"{where}: tensor {name!r} is {entry['dtype']}; weights must be "
                        f"floating point ({', '.join(FLOATS)})")


def tensor(raw: bytes, entries: dict, name: str) -> np.ndarray:
    """One tensor, decoded from its bytes (float16 and bfloat16 widened to float32)."""
    entry = entries[name]
    base = 8 + int.from_bytes(raw[:8], "little")
    start, end = entry["data_offsets"]
    data = raw[base + start:base + end]
    if entry["dtype"] == "BF16":
        halves = np.frombuffer(data, dtype="<u2").astype(np.uint32) << 16
        return halves.view(np.float32).reshape(entry["shape"])
    kind = FLOATS.get(entry["dtype"]) or OTHERS[entry["dtype"]]
    value = np.frombuffer(data, dtype=np.dtype(kind).newbyteorder("<")).reshape(entry["shape"])
    return value.astype(np.float32) if entry["dtype"] == "F16" else value.copy()


def tensors(raw: bytes, entries: dict, names=None) -> dict[str, np.ndarray]:
    """The tensors called ``names`` (default: all), decoded; no other is read."""
    return {name: tensor(raw, entries, name) for name in (names or entries)}
