"""A weights file, any family's: safetensors with handformer's metadata (FORMAT, the family,
the vocabulary), written atomically and read without ever opening a pickle. Each family's own
names and layouts (its ecosystem's torch model's) are its folder's (its registry entry's
``save_weights``, ``export_names``; docs/weights.md)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..errors import WeightsError  # noqa: F401  (raised here)
from ..limits import limit
from ..schema import SchemaError, string, strings
from ..text import END, PAD, START, UNK, Vocab
from ..textsafe import json_loads

SPECIALS = (START, END, PAD, UNK)

FORMAT = "handformer.weights/1"


def write_state(path, state: dict[str, np.ndarray], meta: dict[str, str]) -> None:
    """Tensors under their exported names and string metadata as one safetensors file,
    written atomically (temporary file, fsync, rename): every family's --save-weights. The
    same weights give the same bytes (the metadata in key order: see in_key_order)."""
    from safetensors.numpy import save

    from ..files.io import atomic_write

    atomic_write(path, in_key_order(save(state, metadata=meta)))


def in_key_order(data: bytes) -> bytes:
    """A safetensors file with its ``__metadata__`` keys sorted. safetensors writes them from
    a hash map, in an order that changes from one run to the next; sorted, the header keeps
    its length (the same keys and values) and the tensors' offsets stay as they are. Where
    the rewritten header would not have the same length, the file is left as it was."""
    size = int.from_bytes(data[:8], "little")
    header = json.loads(data[8:8 + size])
    if not isinstance(header.get("__metadata__"), dict):
        return data
    header["__metadata__"] = dict(sorted(header["__metadata__"].items()))
    text = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if len(text) > size or data[8 + len(text):8 + size].strip(b" "):
        return data
    return data[:8] + text + b" " * (size - len(text)) + data[8 + size:]


def family_metadata(meta: dict, family: str, path) -> None:
    """Refuse a file --save-weights wrote for another family, by name (files without a
    family are the encoder-decoder's: written before families were named)."""
    from ..families.registry import name_of

    written = name_of(meta) if meta.get("format") == FORMAT else family
    if written != family:
        raise WeightsError(f"{str(path)!r} holds weights of the {written} family, not the "
                           f"{family} family: walk it with --family {written}")


def listed_vocab(meta: dict) -> Vocab | None:
    """The one vocabulary a weights file's metadata lists (None: it lists none)."""
    try:
        return side_vocab(meta, "")
    except (json.JSONDecodeError, RecursionError, SchemaError) as err:
        raise WeightsError(f"unreadable handformer metadata: {err}") from None


def read_weights(path) -> tuple[dict[str, np.ndarray], dict]:
    """Tensors and metadata of a safetensors file; anything else is refused clearly."""
    from ..files.io import read_bytes
    from . import tensor_file

    path = Path(path)
    if path.is_dir():
        from ..families.registry import notes_for

        raise WeightsError(f"{str(path)!r} is a folder; give a .safetensors file"
                           f"{notes_for('weights_folder')}")
    raw = read_bytes(path, "weights file", WeightsError, limit="file_mib", streams=False)
    _refuse_pickle(path, raw)
    try:
        entries, meta = tensor_file.header(raw)
    except tensor_file.TensorFileError as err:
        raise WeightsError(
            f"{str(path)!r} is not a readable safetensors file (truncated or another format?): "
            f"{err}") from None
    tensor_file.refuse_non_floats(entries, WeightsError, repr(str(path)))
    tensors = tensor_file.tensors(raw, entries)  # floats only: float64 comes per used tensor
    refuse_non_finite(path, tensors)
    return tensors, meta


def refuse_non_finite(path, tensors: dict[str, np.ndarray]) -> None:
    """A NaN or an infinity in a weight would be narrated as "nan" in every step after it."""
    for name, value in tensors.items():
        if np.issubdtype(value.dtype, np.floating) and not np.isfinite(value).all():
            bad = int(value.size - np.isfinite(value).sum())
            raise WeightsError(f"{str(path)!r}: tensor {name!r} holds {bad} non-finite "
                               f"value(s) (NaN or ±inf); these weights cannot be used")


def _refuse_pickle(path: Path, raw: bytes) -> None:
    """torch.save files (a zip holding a pickle) and bare pickles are never opened."""
    if raw[:4] == b"PK\x03\x04" or (len(raw) > 1 and raw[0] == 0x80 and raw[1] <= 5):
        raise WeightsError(
            f"{str(path)!r} looks like a pickle or torch.save file; handformer never loads "
            f"pickles (loading one can run arbitrary code). Save the state_dict as safetensors "
            f"(safetensors.torch.save_file) with the names in docs/weights.md")


def _metadata(raw: bytes) -> dict:
    if len(raw) < 8:
        raise ValueError("file too short")
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    return header.get("__metadata__") or {}


def side_vocab(meta: dict, side: str) -> Vocab | None:
    """One vocabulary the metadata lists, its special tokens as listed (files written before
    the list: the trailing tokens that are handformer's specials, never any <word>)."""
    if f"{side}vocab" not in meta:
        return None
    tokens = strings(json_loads(string(meta[f"{side}vocab"], f"{side}vocab"), "the vocabulary",
                                WeightsError), f"{side}vocab", limit("vocab"))
    if f"{side}specials" in meta:
        specials = strings(json_loads(string(meta[f"{side}specials"], f"{side}specials"),
                                      "the specials", WeightsError), f"{side}specials")
    else:
        specials = [t for t in tokens[-len(SPECIALS):] if t in SPECIALS]
    vocab = Vocab(tuple(tokens[:len(tokens) - len(specials)]), tuple(specials))
    if vocab.tokens != tokens or len(set(tokens)) != len(tokens):
        raise SchemaError("vocab must list each token once, the special tokens last")
    if not {START, END} <= set(specials):
        raise SchemaError(f"specials must hold {START} and {END}, got {specials[:4]}")
    return vocab
