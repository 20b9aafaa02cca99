"""The decoder-only model's run: options → model (vocabulary, parameters), one text forward
onto a tape with the next-token loss, the backward pass with one SGD update.

The default text is the tutorial's sentence pair read as one text, "when you play the game of
thrones you win or you die": the prompt (``src``) and its continuation (``tgt``). The model
reads <start> and the words, and at each position should predict the next word (the last one
<end>): the target is the input shifted by one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...engine.layers import loss_step
from ...engine.tape import Tape
from ...engine.update import sgd_update
from ...errors import HandformerError, TextError
from ...limits import check_walk
from ...text import END, START, TUTORIAL_DATASET, TUTORIAL_SRC, TUTORIAL_TGT, Vocab, read_corpus
from .config import GptConfig, from_options
from .model import forward, init_params


@dataclass
class Model:
    """What a walk starts from: config, the texts the vocabulary came from, vocabulary,
    parameters."""

    config: GptConfig
    dataset: list[str]
    vocab: Vocab
    params: dict[str, np.ndarray]
    trained: dict | None = None  # for a checkpoint: where it came from and its epochs
    notes: list[str] = field(default_factory=list)
    pretrained: dict | None = None  # a known model read from its file (pretrained.py)


def build(config: GptConfig, dataset: list[str] | None = None,
          tokenizer: str = "tutorial", bpe_merges: int | None = None) -> Model:
    """The vocabulary of ``dataset`` (the tutorial's three lines as plain text by default) and
    fresh parameters; with the "bpe" tokenizer, ``bpe_merges`` merges learnt from it (bpe.py)."""
    dataset = list(TUTORIAL_DATASET) if dataset is None else dataset
    if tokenizer == "bpe":
        from ...bpe import DEFAULT_MERGES, BpeVocab

        vocab = BpeVocab.learnt(dataset, bpe_merges or DEFAULT_MERGES)
    else:
        vocab = Vocab.from_corpus(dataset, tokenizer=tokenizer)
    return Model(config, dataset, vocab, init_params(config, len(vocab)))


@dataclass(frozen=True)
class Text:
    """One text as the model reads it: input <start> w₁ … w_n, target w₁ … w_n <end>."""

    prompt: list[str]
    input_tokens: list[str]
    input_ids: list[int]
    target_tokens: list[str]
    target_ids: list[int]


def make_text(vocab: Vocab, prompt: str, continuation: str, max_len: int) -> Text:
    """The prompt and its continuation as one text, shifted by one for the next-token loss."""
    words = vocab.tokenize(prompt) + vocab.tokenize(continuation)
    if not words:
        raise TextError("the text is empty: give at least one word (--src, --tgt)")
    # Byte-level BPE reads the space between the two as a byte of the continuation's first word.
    joined = " ".join(s for s in (prompt, continuation) if s) if vocab.tokenizer == "bpe" \
        else " ".join(words)
    ids = vocab.encode(joined, "text")
    if len(ids) + 1 > max_len:
        raise TextError(f"the text has {len(ids)} words (+1 for <start>), more than the "
                        f"model's maximum length {max_len}; shorten it or raise max_len")
    inp, out = [vocab.id(START), *ids], [*ids, vocab.id(END)]
    return Text(vocab.tokenize(prompt), vocab.decode(inp), inp, vocab.decode(out), out)


def run_forward(model: Model, prompt: str, continuation: str, record: bool = True) -> Tape:
    """One text through the model, every step on the tape, the loss last."""
    cfg, text = model.config, make_text(model.vocab, prompt, continuation, model.config.max_len)
    n = len(text.input_ids)
    check_walk(cfg, 0, n, len(model.vocab))
    tape = Tape(model.params, record=record)
    tape.meta.update(
        family="gpt", config=cfg.to_dict(), dataset=list(model.dataset), vocab=model.vocab.tokens,
        tokenizer=model.vocab.tokenizer, prompt={"tokens": text.prompt},
        tgt={"tokens": text.input_tokens, "ids": text.input_ids},
        target={"tokens": text.target_tokens, "ids": text.target_ids})
    if model.vocab.tokenizer == "bpe":
        tape.meta["bpe"] = bpe_told(model, " ".join(s for s in (prompt, continuation) if s))
    if model.trained:
        tape.meta["trained"] = dict(model.trained) | {  # an epoch here is one Adam step
            "untrained_p_target": _untrained_probs(model, text), "unit": "steps"}
        tape.meta["beside"] = _untrained_beside(model, text)
    logits = forward(tape, cfg, text.input_ids)
    targets = np.asarray(text.target_ids)
    loss_step(tape, logits, targets)
    return tape


def bpe_told(model: Model, text: str) -> dict:
    """What the byte-level BPE panels show (bpe.py): the merges learnt again from the model's
    texts, with every count (they must be the vocabulary's own), and ``text`` segmented."""
    from ...bpe import learn, segment, symbols

    merges = list(model.vocab.merges)
    told = learn(model.dataset, len(merges))
    if [tuple(m["pair"]) for m in told["merges"]] != merges:
        raise HandformerError("the model's merges are not the ones its texts teach; its "
                              "vocabulary and texts do not belong together")
    wide = next((ch for line in model.dataset for ch in line if "\u4e00" <= ch <= "\u9fff"),
                "中")  # a Chinese character of the corpus, else one to show the rule on
    told["example"] = {"char": wide, "bytes": list(wide.encode("utf-8")),
                       "symbols": symbols(wide)}
    return told | {"text": segment(text, merges)}


def _untrained_probs(model: Model, text: Text) -> list[float]:
    """p(target) at each position under the initial weights of the same config and seed:
    what the untrained walk shows, for a before/after comparison."""
    tape = Tape(init_params(model.config, len(model.vocab)), record=False)
    forward(tape, model.config, text.input_ids)
    p = tape["generator.probs"]
    return [float(p[t, i]) for t, i in enumerate(text.target_ids)]


def _untrained_beside(model: Model, text: Text) -> dict:
    """A checkpoint's walk: the same model before training (its initial weights, same config
    and seed) on the same text, shown beside the trained one (beside.py, narrate/beside.py)."""
    from .beside import untrained

    initial = init_params(model.config, len(model.vocab))
    return untrained(initial, model.config, model.trained["epochs"], text.input_ids,
                     text.target_ids)


def run_backward(tape: Tape, lr: float) -> None:
    """The reverse pass, then one plain SGD step θ ← θ − η g, recorded for showing; the tied
    table E gets one gradient, the sum of its two uses, and so one update."""
    sgd_update(tape, lr, loss_with)


def loss_with(tape: Tape, params: dict[str, np.ndarray]) -> tuple[float, dict]:
    """The same text's loss under other parameters (the updated ones): a second forward pass,
    with each position's p(target) and predicted word after it (for the recap's table)."""
    again = Tape(params, record=False)
    logits = forward(again, GptConfig.from_dict(tape.meta["config"]), tape["ids"])
    loss = tape.index["loss"]
    again.run("loss", loss.op, [logits], dict(loss.attrs))
    p, target = again["generator.probs"], np.ravel(tape.meta["target"]["ids"])
    return float(np.asarray(again.value("loss")).reshape(-1)[0]), {
        "p_target_after": [float(p[t, int(i)]) for t, i in enumerate(target)],
        "predicted_after": [int(i) for i in np.argmax(p, axis=-1)]}


# --- what the pipeline calls (through the family registry) -----------------------------------


def prepare(options: dict) -> Model:
    """Options → a checked config and a ready model. ``src`` (the prompt), ``tgt`` (its
    continuation), ``backward`` and ``lr`` are read by ``walk`` and ``backward``."""
    from .generation import GENERATION

    if options.get("pretrained"):
        from .pretrained import prepare as pretrained_model

        return pretrained_model({k: v for k, v in options.items() if k not in ("src", "tgt")})
    if options.get("checkpoint") and options.get("generate") is not None:
        options = {k: v for k, v in options.items() if k != "seed"}  # --seed: the sampling's
    options = {k: v for k, v in options.items()
               if k not in ("src", "tgt", "lr", "backward", "family", *GENERATION)}
    if options.get("checkpoint") and options.get("beside_trained"):
        raise HandformerError("a checkpoint's weights are trained already; drop "
                              "--beside-trained (it trains a copy of random weights)")
    options.pop("beside_trained", None)
    checkpoint = options.pop("checkpoint", None)
    if checkpoint:
        return from_checkpoint(checkpoint, options)
    corpus, tokenizer = options.pop("corpus", None), options.pop("tokenizer", None)
    bpe_merges = options.pop("bpe_merges", None)
    if bpe_merges is not None and tokenizer != "bpe":
        raise HandformerError("--bpe-merges is how many merges byte-level BPE learns: add "
                              "--tokenizer bpe")
    dataset = options.pop("dataset", None)  # lines given already (a web request's corpus)
    weights = options.pop("weights", None)
    if corpus:
        dataset = read_corpus(corpus)
    config = options.pop("config", None) or from_options(options)  # prebuilt: checked already
    model = build(config, dataset, tokenizer or "tutorial", bpe_merges)
    return with_weights(model, weights) if weights else model


def with_weights(model: Model, path: str) -> Model:
    """The model with the weights of ``path`` (weights.py): the file's config and vocabulary
    when --save-weights wrote it."""
    from .weights import load

    model.params, model.config, model.vocab = load(path, model.config, model.vocab)
    return model


def from_checkpoint(path: str, options: dict) -> Model:
    """A model `handformer train --family gpt` saved: its config, vocabulary, texts and
    weights; sizes given beside it are refused (they are the checkpoint's)."""
    from .saved import load

    given = sorted(k for k, v in options.items() if v is not None and v is not False
                   and k not in ("corpus", "tokenizer", "preset"))
    given += [k for k in ("corpus", "tokenizer", "preset") if options.get(k)]
    if given:
        raise HandformerError(f"--checkpoint brings its own sizes, vocabulary and texts; drop "
                              f"--{given[0].replace('_', '-')}")
    model = load(path)
    model.params = {k: np.asarray(v, dtype=np.float64) for k, v in model.params.items()}
    return model


def verify(options: dict) -> tuple[str, list]:
    """`verify --family gpt`: one text's stages, loss and every gradient against a GPT built
    from torch's layers (torch_ref.py), float64; the weights of ``options["weights"]`` (a
    --save-weights file) when given, else fresh ones."""
    from ...interop.torch_ref import import_torch

    import_torch()
    src, tgt = options.pop("src", None), options.pop("tgt", None)
    model = prepare(options)
    if model.config.modern:  # nn.TransformerEncoderLayer has none of these parts
        from .torch_modern import compare
    else:
        from .torch_ref import compare
    text = make_text(model.vocab, TUTORIAL_SRC if src is None else src,
                     TUTORIAL_TGT if tgt is None else tgt, model.config.max_len)
    c = model.config
    title = (f"ours vs a GPT from torch's layers, preset {c.preset}, norm {c.norm}, float64"
             if not c.modern else
             f"ours vs the model in torch's functions (F.{'rms' if c.norm_kind == 'rms' else 'layer'}"
             f"_norm, F.scaled_dot_product_attention{' with enable_gqa' if c.groups > 1 else ''}"
             f"{', F.silu' if c.ffn == 'swiglu' else ''}{', RoPE ' + c.rope_pairs + ' pairs' if c.pos == 'rope' else ''}), "
             f"preset {c.preset}, norm {c.norm}, float64")
    return title, compare(model.config, model.params, text.input_ids, text.target_ids)


def walk(model: Model, options: dict) -> Tape:
    """The prompt and its continuation (the tutorial's when not given; "" is empty) forward;
    with ``beside_trained``, a copy of the weights trained on the spot beside them."""
    from .generation import generate_after_walk, prompt_and_rest

    if model.pretrained:
        from .pretrained import walk as walk_pretrained

        return walk_pretrained(model, options)
    src, tgt = prompt_and_rest(model, options)  # with --generate: the prompt alone
    tape = run_forward(model, TUTORIAL_SRC if src is None else src,
                       TUTORIAL_TGT if tgt is None else tgt)
    if options.get("beside_trained"):
        from .beside import trained_on_the_spot

        tape.meta["beside"] = trained_on_the_spot(model, tape)
    generate_after_walk(tape, model, options)
    return tape


def backward(tape: Tape, model: Model, options: dict) -> None:
    lr = options.get("lr")
    run_backward(tape, 0.1 if lr is None else lr)


def notes(model: Model, tape: Tape) -> list[str]:
    return list(model.notes)
