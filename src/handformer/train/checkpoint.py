"""Checkpoints: safetensors for every tensor (weights, optimizer state), JSON metadata for the rest.

The metadata holds the config, the vocabulary (``vocab``; with one per side, ``vocab`` is the
source's and ``target_vocab`` the target's), the optimizer (name, hyper-parameters, step),
the epoch, the random generator's state, the loss history and a SHA-256 of the tensor bytes,
so a corrupted file is refused rather than silently trained on. Saving is atomic (temporary
file, fsync, rename): a run killed while saving leaves the previous checkpoint intact.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import CheckpointError, ConfigError, TextError  # noqa: F401  (raised here)
from ..families.registry import DEFAULT
from ..files.io import atomic_write, read_bytes
from ..interop import tensor_file
from ..interop.weights import WeightsError, refuse_non_finite
from ..schema import SchemaError
from ..text import Sides, Vocab, size_of
from ..textsafe import json_loads
from .ckpt_schema import check_meta, check_optimizer_state

FORMAT = "handformer.checkpoint/1"
DEFAULT_PATH = "handformer.ckpt"




@dataclass
class Checkpoint:
    """What a checkpoint holds. ``family``: the model family whose config and parameters these
    are (families/registry.py); a checkpoint saved before families were named is the
    encoder-decoder's."""

    config: object
    vocab: Vocab | Sides  # one shared vocabulary, or one per side
    params: dict[str, np.ndarray]
    optimizer: dict = field(default_factory=dict)  # name, hyper, step
    optimizer_state: dict[str, np.ndarray] = field(default_factory=dict)
    epoch: int = 0
    rng_state: dict | None = None
    history: list[dict] = field(default_factory=list)
    run: dict = field(default_factory=dict)  # the training options, to resume with the same
    family: str = DEFAULT


def digest(tensors: dict[str, np.ndarray]) -> str:
    """SHA-256 over names, dtypes, shapes and bytes, in name order."""
    h = hashlib.sha256()
    for name in sorted(tensors):
        t = np.ascontiguousarray(tensors[name])
        h.update(f"{name}|{t.dtype.str}|{t.shape}|".encode())
        h.update(t.tobytes())
    return h.hexdigest()


def save(path, ckpt: Checkpoint) -> None:
    """Write the checkpoint atomically."""
    from safetensors.numpy import save as st_save

    tensors = {f"param.{k}": np.ascontiguousarray(v) for k, v in ckpt.params.items()}
    tensors |= {f"optim.{k}": np.ascontiguousarray(v) for k, v in ckpt.optimizer_state.items()}
    meta = {
        "format": FORMAT, "config": ckpt.config.to_dict(),
        "vocab": _vocab_dict(ckpt.vocab.source),
        "optimizer": ckpt.optimizer, "epoch": ckpt.epoch, "rng_state": ckpt.rng_state,
        "history": ckpt.history, "run": ckpt.run, "sha256": digest(tensors),
    }
    if isinstance(ckpt.vocab, Sides):  # "vocab" is then the source's
        meta["target_vocab"] = _vocab_dict(ckpt.vocab.target)
    if ckpt.family != DEFAULT:  # the default family's checkpoints stay as they were
        meta["family"] = ckpt.family
    data = st_save(tensors, metadata={"handformer": json.dumps(meta)})
    atomic_write(path, data)


def load(path, family: str | None = DEFAULT) -> Checkpoint:
    """Read and check a checkpoint; anything truncated, corrupted or foreign is refused, and so
    is a checkpoint of another model family than ``family`` (None: any family).

    Header first (interop/tensor_file.py): the checksum is taken over the stored bytes, and
    names, shapes and dtypes are checked before any tensor is decoded; bfloat16 and float16
    parameters are read exactly, float16 optimizer state is refused."""
    path = Path(path)
    raw, entries, header = _read(path)
    meta = _meta(path, header)
    if stored_digest(raw, entries) != meta.get("sha256"):
        raise CheckpointError(f"{str(path)!r} is corrupted: its tensors do not match the "
                              f"checksum saved with them; use an earlier checkpoint")
    try:
        check_meta(meta)
        found = _family(meta)
        config = found.config.from_dict(meta["config"])
        vocab = _vocab_of(meta["vocab"])
        if "target_vocab" in meta:  # one vocabulary per side; before them, one shared
            vocab = Sides(vocab, _vocab_of(meta["target_vocab"]))
    except (SchemaError, ConfigError, TextError) as err:
        raise CheckpointError(f"{str(path)!r} has unreadable metadata: {err}") from None
    if family is not None and found.name != family:
        raise CheckpointError(f"{str(path)!r} holds a model of the {found.name} family, not "
                              f"the {family} family this command runs; walk it with "
                              f"`handformer walk --family {found.name} --checkpoint FILE`")
    shapes = {k: _Shape(tuple(e["shape"])) for k, e in entries.items()}
    order = _check_shapes(path, {k[6:]: v for k, v in shapes.items() if k.startswith("param.")},
                          found, config, _sizes(path, vocab, found, config))
    tensor_file.refuse_non_floats(entries, CheckpointError, repr(str(path)))
    try:
        check_optimizer_state(meta.get("optimizer", {}).get("name", "adam"),
                              {k[6:]: v for k, v in shapes.items() if k.startswith("optim.")},
                              {name: shapes["param." + name] for name in order})
    except SchemaError as err:
        raise CheckpointError(str(err)) from None
    _refuse_half_state(path, entries)
    tensors = tensor_file.tensors(raw, entries)
    try:
        refuse_non_finite(path, tensors)
    except WeightsError as err:
        raise CheckpointError(str(err)) from None
    params = {name: tensors["param." + name] for name in order}
    state = {k[6:]: v for k, v in tensors.items() if k.startswith("optim.")}
    return Checkpoint(config, vocab, params, meta.get("optimizer", {}), state,
                      meta.get("epoch", 0), meta.get("rng_state"), meta.get("history", []),
                      meta.get("run", {}), found.name)


def _sizes(path: Path, vocab, family, config):
    """What the family's param_shapes takes: one size, or (source, target) for one per side
    (a family that learns from pairs, untied: its registry entry has ``pairs``; the others
    have one side)."""
    if not isinstance(vocab, Sides):
        return size_of(vocab)
    if family.pairs is None or getattr(config, "tie_embeddings", False):
        raise CheckpointError(f"{str(path)!r}: this model has one vocabulary table (a "
                              f"{family.name} model, tied or one-sided), but the file holds one "
                              f"vocabulary per side (target_vocab)")
    return vocab.sizes


def _vocab_dict(vocab: Vocab) -> dict:
    told = {"words": list(vocab.words), "specials": list(vocab.specials),
            "tokenizer": vocab.tokenizer}
    if vocab.tokenizer == "bpe":  # byte-level BPE: its merges split every later text
        told["merges"] = [list(pair) for pair in vocab.merges]
    if hasattr(vocab, "cases"):  # a truecaser: translations into it are recased
        told["cases"] = [list(pair) for pair in vocab.cases]
    return told


def _vocab_of(told: dict) -> Vocab:
    if told.get("tokenizer") == "bpe":
        from ..bpe import BpeVocab

        return BpeVocab(tuple(told["words"]), tuple(told["specials"]), "bpe",
                        tuple(tuple(pair) for pair in told.get("merges", [])))
    if "cases" in told:
        from ..truecase import CasedVocab

        return CasedVocab(tuple(told["words"]), tuple(told["specials"]),
                          told.get("tokenizer", "tutorial"), told["cases"])
    return Vocab(tuple(told["words"]), tuple(told["specials"]), told.get("tokenizer", "tutorial"))


def _family(meta: dict):
    from ..families import registry

    name = meta.get("family", DEFAULT)
    if not isinstance(name, str) or name not in registry.names():
        raise SchemaError(f"its family {str(name)[:40]!r} is not one of "
                          f"{', '.join(registry.names())}")
    return registry.get(name)


@dataclass(frozen=True)
class _Shape:
    """A tensor known by its header only (what the shape checks need of it)."""

    shape: tuple


# The dtype each stored kind had in NumPy when digest() was taken; bfloat16, which NumPy
# lacks, is "bf16".
_TAGS = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "BF16": "bf16"}


def stored_digest(raw: bytes, entries: dict) -> str:
    """digest() of the file's tensors, taken over their stored bytes without decoding them."""
    h = hashlib.sha256()
    base = 8 + int.from_bytes(raw[:8], "little")
    view = memoryview(raw)
    for name in sorted(entries):
        entry = entries[name]
        tag = _TAGS.get(entry["dtype"]) or np.dtype(
            tensor_file.OTHERS[entry["dtype"]]).newbyteorder("<").str
        h.update(f"{name}|{tag}|{tuple(entry['shape'])}|".encode())
        start, end = entry["data_offsets"]
        h.update(view[base + start:base + end])
    return h.hexdigest()


def _refuse_half_state(path: Path, entries: dict) -> None:
    """float16 cannot hold an optimizer's state: Adam's second moments (squared gradients,
    often below 6e-8) round to 0 and the next step divides by almost nothing; a run resumed
    from it would diverge, and the learning rate would be blamed."""
    for name, entry in sorted(entries.items()):
        if name.startswith("optim.") and entry["dtype"] == "F16":
            raise CheckpointError(f"{str(path)!r}: optimizer state {name!r} is float16, which "
                                  f"cannot hold it (values below 6e-8 become 0); save the "
                                  f"optimizer state as float32 or float64")


def _read(path: Path) -> tuple[bytes, dict, dict]:
    """(the file's bytes, its tensors' header entries, the header's metadata)."""
    if not path.exists():
        raise CheckpointError(f"checkpoint {str(path)!r} does not exist; train one with "
                              f"`handformer train --save {path}`")
    raw = read_bytes(path, "checkpoint", CheckpointError, limit="file_mib", streams=False)
    try:
        entries, meta = tensor_file.header(raw)
    except tensor_file.TensorFileError as err:
        raise CheckpointError(f"{str(path)!r} is not a readable checkpoint (truncated, or not a "
                              f"safetensors file): {err}") from None
    return raw, entries, {"__metadata__": meta}


def _meta(path: Path, header: dict) -> dict:
    text = (header.get("__metadata__") or {}).get("handformer")
    try:
        meta = json_loads(text, "the checkpoint's metadata", CheckpointError) if text else {}
    except (json.JSONDecodeError, RecursionError):
        meta = {}
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise CheckpointError(
            f"{str(path)!r} is a safetensors file but not a handformer checkpoint (no "
            f"{FORMAT} metadata); weights saved with `walk --save-weights` load with --weights")
    return meta


def _check_shapes(path, params, family, config, vocab_size) -> list[str]:
    """The parameters' names in the model's own order (safetensors sorts names; the order
    matters: the global gradient norm sums in it, and resuming must repeat every rounding)."""
    want = family.param_shapes(config, vocab_size)
    if set(want) != set(params):
        missing = sorted(set(want) - set(params))[:3]
        raise CheckpointError(f"{str(path)!r} does not fit its own config (missing {missing})")
    for name, (shape, _) in want.items():
        if tuple(params[name].shape) != shape:
            raise CheckpointError(f"{str(path)!r}: {name} has shape {params[name].shape}, "
                                  f"its config needs {shape}")
    return list(want)
