"""A JSON body to what the engine takes: a family's config (built as the CLI builds it),
sentences, corpus.

The config fields are the CLI's option names with underscores ("d_model", "heads", "layers", ...)
and become the config through cli.config_from_options (the default family's) or the family's
``configure``, so `POST /api/walk` and `handformer walk` cannot disagree. No field is ever a
file system path.
"""

from __future__ import annotations

import math
import re
import typing
from dataclasses import dataclass

from .. import pipeline
from ..cli import config_fields, config_from_options
from ..errors import HandformerError, TokenizerError
from ..families import registry
from ..families.registry import Family, declared, presets_of, refuse_foreign, size_options
from ..text import TUTORIAL_DATASET, TUTORIAL_SRC, TUTORIAL_TGT, Vocab, corpus_lines
from ..tokenize import TOKENIZERS
from . import fields
from .fields import expect_object, reject_unknown  # noqa: F401  (re-exported for the handlers)
from .limits import Limits, RequestError, check_caps, check_corpus, check_model, check_sentence

WALK_FIELDS = set(fields.WALK)


@dataclass
class Walk:
    """One walk request, checked: the run's family and model (config, vocabulary, parameters,
    from pipeline.prepare), the sentences and the backward switch."""

    family: Family
    setup: typing.Any
    src: str
    tgt: str
    backward: bool = False
    lr: float = 0.1
    sample: dict | None = None  # one next token, chosen so (temperature, top_k, top_p)

    def options(self) -> dict:
        """What pipeline.finish reads."""
        if self.sample is None:
            return {"src": self.src, "tgt": self.tgt, "backward": self.backward, "lr": self.lr}
        # the next token after the whole text: source and target together are the prompt
        prompt = " ".join(t for t in (self.src, self.tgt) if t)
        return {"src": prompt, "tgt": None, "backward": self.backward, "lr": self.lr,
                "generate": 1} | self.sample

    def tape(self):
        """This walk's tape, through the one pipeline (every gradient too, with backward)."""
        return pipeline.finish(self.family, self.setup, self.options()).tape


def build_config(body: dict, family: Family | None = None):
    """``preset`` plus ``config`` overrides, exactly as `--preset NAME --d-model 8 ...` do
    (for another family than the encoder-decoder, as `--family NAME ...` does)."""
    name = body.get("preset") or "tutorial"
    overrides = expect_object(body.get("config") or {}, "config")
    reject_unknown(overrides, set(config_fields()) | set(declared()), "config.")
    for key, value in overrides.items():
        _check_type(key, value)
    check_caps(overrides)
    try:
        overrides = refuse_foreign(family.name if family else registry.DEFAULT, overrides)
    except HandformerError as err:
        raise RequestError(str(err), _family_field(str(err), err)) from None
    if family is not None and family.name != registry.DEFAULT:
        try:
            return family.configure({"preset": name, **overrides})
        except HandformerError as err:
            raise RequestError(str(err), _family_field(str(err), err)) from None
    presets = presets_of(registry.DEFAULT)
    if name not in presets:
        raise RequestError(f"preset must be one of {', '.join(presets)}, got {name!r}", "preset")
    return config_from_options({"preset": name, **overrides})


def _family_field(message: str, err: HandformerError) -> str:
    """The field a family's refusal names: its flag (--ffn), its presets, or a size."""
    flag = re.search(r"--([a-z][a-z-]*)", message)
    if flag:
        return f"config.{flag[1].replace('-', '_')}"
    return "preset" if "preset" in message else field_of(err) or "config"


def app_families() -> list[str]:
    """The families the app's form builds: those whose config a request's preset and fields
    make (``configure``), and the encoder-decoder; not one that only loads a pretrained
    model."""
    return [name for name in registry.names()
            if name == registry.DEFAULT or (registry.get(name).configure is not None
                                         and not registry.get(name).pretrained)]


def family_of(body: dict) -> Family:
    """The family a request names (the encoder-decoder when it names none)."""
    name = body.get("family") or registry.DEFAULT
    if name not in app_families():
        raise RequestError(f"family must be one of {', '.join(app_families())}, got "
                           f"{str(name)[:40]!r}", "family")
    return registry.get(name)


def _check_type(name: str, value) -> None:
    if value is None:
        return
    kind = _declared_kind(name) or int
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    what = {int: "a whole number", float: "a number", bool: "true or false",
            str: "text"}.get(kind, kind.__name__)
    if kind in (int, float) and number:
        if kind is int and not isinstance(value, int):  # a JSON number, not whole: a value
            raise RequestError(f"config.{name} must be {what}, got {value!r}",
                               f"config.{name}")
    elif not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise RequestError(f"config.{name} must be {what}, got {fields.shown(value)}",
                           f"config.{name}", 400)


def _declared_kind(name: str) -> type | None:
    """The type of a size or a switch a family declares (a word when it lists its
    choices)."""
    found = declared().get(name)
    option = found[0] if found else next((o for o in size_options() if o.name == name), None)
    if option is None:
        return None
    return str if option.choices else option.kind


def dataset_of(body: dict, limits: Limits) -> list[str] | None:
    """The corpus's sentences, or None for the tutorial's dataset (absent or empty corpus)."""
    corpus = body.get("corpus")
    if corpus is None or corpus == "":
        return None
    return corpus_lines(check_corpus(corpus, "corpus", limits))


def sentences_of(body: dict, limits: Limits) -> tuple[str, str, bool, float]:
    """A walk body's sentences (the tutorial's where not given), "backward" and its "lr"."""
    src, tgt = body.get("src"), body.get("tgt")
    src = TUTORIAL_SRC if src is None else check_sentence(src, "src", limits)
    tgt = TUTORIAL_TGT if tgt is None else check_sentence(tgt, "tgt", limits)
    lr = body.get("lr", Walk.lr)
    if not math.isfinite(lr):
        raise RequestError(f"lr must be a finite number, got {lr!r}", "lr")
    return src, tgt, body.get("backward", False) is True, float(lr)


def parse_walk(body, limits: Limits) -> Walk:
    body = fields.read(body, fields.WALK)
    src, tgt, backward, lr = sentences_of(body, limits)
    family = family_of(body)
    cfg = build_config(body, family)
    dataset = dataset_of(body, limits)
    tokenizer = tokenizer_of(body)
    field = "config" if body.get("config") else "preset"
    if tokenizer != "bpe":  # BPE's vocabulary is learnt by the family (at most 256 + merges)
        check_model(family, cfg, len(_vocab(dataset or TUTORIAL_DATASET, tokenizer)), limits,
                    field)
    try:
        family, model = pipeline.prepare({"family": family.name, "config": cfg,
                                          "dataset": dataset, "tokenizer": tokenizer})
    except HandformerError as err:  # a tokenizer the family does not take, or jieba missing
        if isinstance(err, TokenizerError) or "--tokenizer" in str(err):
            raise RequestError(str(err), "tokenizer") from None
        raise
    if tokenizer == "bpe":
        check_model(family, cfg, len(model.vocab), limits, field)
    return Walk(family, model, src, tgt, backward, lr, sample_of(body, family))


def sample_of(body: dict, family: Family) -> dict | None:
    """The "sample" of a walk body: one next token written after the text, chosen at
    temperature T (0: greedy) among the top_k most likely, within top_p of the probability."""
    sample = body.get("sample")
    if sample is None:
        return None
    sample = fields.read(sample, fields.SAMPLE, "sample.")
    if not family.generates:
        raise RequestError(f"sample: the {family.name} family writes no tokens after its text",
                           "sample")
    if body.get("backward"):
        raise RequestError("sample: the next token is written after a walk forward only (it has "
                           "no target to learn from): turn the backward walk off", "sample")
    temperature, top_k, top_p = (sample.get("temperature", 1.0), sample.get("top_k"),
                                 sample.get("top_p"))
    if not (math.isfinite(temperature) and 0 <= temperature <= 100):
        raise RequestError(f"sample.temperature must be from 0 (greedy) to 100, got "
                           f"{temperature!r}", "sample.temperature")
    if top_k is not None and (not isinstance(top_k, int) or not 1 <= top_k <= 1_000_000):
        raise RequestError(f"sample.top_k must be a whole number, 1 or more, got {top_k!r}",
                           "sample.top_k")
    if top_p is not None and not 0 < top_p <= 1:
        raise RequestError(f"sample.top_p must be in (0, 1], got {top_p!r}", "sample.top_p")
    return {"temperature": float(temperature), "top_k": top_k,
            "top_p": None if top_p is None else float(top_p)}


def tokenizer_of(body: dict) -> str:
    """The request's tokenizer: one of the CLI's `--tokenizer` names (the tutorial's rule when
    it names none)."""
    name = body.get("tokenizer") or "tutorial"
    if name not in TOKENIZERS:
        raise RequestError(f"tokenizer must be one of {', '.join(TOKENIZERS)}, got "
                           f"{str(name)[:40]!r}", "tokenizer")
    return name


def _vocab(sentences, tokenizer: str) -> Vocab:
    try:
        return Vocab.from_corpus(sentences, tokenizer=tokenizer)
    except TokenizerError as err:  # jieba chosen but not installed
        raise RequestError(str(err), "tokenizer") from None


_ROLES = (("source sentence", "src"), ("target sentence", "tgt"), ("corpus", "corpus"),
          ("--max-len", "config.max_len"), ("pair", "pairs"))


def field_of(err: HandformerError) -> str | None:
    """The request field a library error concerns, read from its message (names first)."""
    message = str(err)
    first = re.match(r"(\w+) must", message)  # "kv_heads must divide …": the field it names
    if first and first[1] in {*config_fields(), *declared()}:
        return f"config.{first[1]}"
    for name in sorted({*config_fields(), *declared()}, key=len, reverse=True):
        if re.search(rf"(?<![\w-]){name}(?!\w)", message):
            return f"config.{name}"
    for phrase, field in _ROLES:  # as words: "rope_pair" is no pair
        if re.search(rf"(?<![\w-]){re.escape(phrase)}", message):
            return field
    return None
