"""The encoder-decoder's run: its model from options (dataset, vocabulary, parameters), one
sentence pair forward onto a tape with the loss, the backward pass with one SGD update.

The pipeline (handformer.pipeline) calls ``prepare``, ``walk``, ``backward`` and ``notes``
through the family registry; the rest is what they are made of, also used by training and
the web app's compare.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...engine.layers import loss_step
from ...engine.tape import Tape
from ...engine.update import sgd_update
from ...errors import HandformerError
from ...limits import check_walk
from ...text import (
    END,
    TUTORIAL_DATASET,
    TUTORIAL_SRC,
    TUTORIAL_TGT,
    Sides,
    Vocab,
    make_example,
    read_corpus,
)
from . import errata
from .config import Config
from .config import preset as make_preset
from .model import forward, init_params


@dataclass
class Setup:
    """Everything a run starts from: config, dataset, vocabulary and parameters."""

    config: Config
    dataset: list[str]
    vocab: Vocab | Sides  # a checkpoint of a real corpus has one per side
    params: dict[str, np.ndarray]
    trained: dict | None = None  # for a checkpoint: its epochs and its initial weights
    sharded: dict | None = None  # with --shards: one step's gradient as a batch and as shards
    notes: list[str] = field(default_factory=list)  # what the user should know (a corpus's tokens)


def setup(config: Config, corpus: str | None = None, weights: str | None = None,
          dataset: list[str] | None = None, checkpoint: str | None = None,
          tokenizer: str = "tutorial") -> Setup:
    """Dataset (the tutorial's, a corpus file, or ``dataset``'s sentences), vocabulary (split
    by ``tokenizer``), and parameters (fresh or loaded). A ``checkpoint`` written by
    ``handformer train`` brings its own config, vocabulary and weights."""
    if checkpoint is not None:
        return setup_from_checkpoint(checkpoint)
    if dataset is None:
        dataset = read_corpus(corpus) if corpus else list(TUTORIAL_DATASET)
    vocab = Vocab.from_corpus(dataset, tokenizer=tokenizer)
    if weights is None:
        return Setup(config, dataset, vocab, init_params(config, len(vocab)))
    from .weights import load_weights

    params, config, vocab = load_weights(weights, config, vocab)
    return Setup(config, dataset, vocab, params)


def setup_from_checkpoint(path: str) -> Setup:
    """The trained model as saved: its config, vocabulary and weights (as float64, the walk's
    number type), and as dataset the sentences it was trained on when they can be read."""
    from ...train.checkpoint import load
    from ...train.datasets import licence_of, source_sentences

    ckpt = load(path)
    params = {name: np.asarray(value, dtype=np.float64) for name, value in ckpt.params.items()}
    trained = {"checkpoint": str(path), "epochs": ckpt.epoch,
               "initial": init_params(ckpt.config, ckpt.vocab.sizes),
               "licence": licence_of(ckpt.run.get("pairs", "default")),
               "pairs": ckpt.run.get("pairs", "default")}
    return Setup(ckpt.config, source_sentences(ckpt.run.get("pairs", "default")), ckpt.vocab,
                 params, trained)


def run_forward(s: Setup, src: str, tgt: str, record: bool = True) -> Tape:
    """One sentence pair through the model, every step on the tape, the loss last."""
    example = make_example(s.vocab, src, tgt, s.config.max_len)
    check_walk(s.config, len(example.src_ids), len(example.tgt_ids), len(s.vocab.target))
    tape = Tape(s.params, record=record)
    tape.meta.update(
        family="transformer", config=s.config.to_dict(), dataset=list(s.dataset),
        vocab=s.vocab.target.tokens, tokenizer=s.vocab.tokenizer,
        src={"tokens": example.src_tokens, "ids": example.src_ids},
        tgt={"tokens": example.tgt_tokens, "ids": example.tgt_ids},
        target={"tokens": example.out_tokens, "ids": example.out_ids},
    )
    logits = forward(tape, s.config, example.src_ids, example.tgt_ids)
    targets = np.asarray(example.out_ids)
    if s.trained:
        from .beside import untrained

        before, told = _untrained(s, example)
        tape.meta["trained"] = {"checkpoint": s.trained["checkpoint"],
                                "epochs": s.trained["epochs"], **told}
        tape.meta["beside"] = untrained(s, example, before)
        if s.trained["licence"]:
            tape.meta["dataset_licence"] = s.trained["licence"]
    loss_step(tape, logits, targets, s.config.label_smoothing)
    if s.vocab.source is not s.vocab.target:  # one per side: "vocab" is the target's
        tape.meta["src_vocab"] = s.vocab.source.tokens
    errata.annotate(tape)
    return tape


def _untrained(s: Setup, example) -> tuple[Tape, dict]:
    """Under the checkpoint's initial weights (same config and seed), what the untrained walk of
    this model shows: each position's p(target), predicted word and the loss, for a
    before/after comparison; and the tape (recorded: the beside view reads its pattern)."""
    tape = Tape(s.trained["initial"])
    logits = forward(tape, s.config, example.src_ids, example.tgt_ids)
    targets = np.asarray(example.out_ids)
    loss_step(tape, logits, targets, s.config.label_smoothing)
    after = _outcome(tape, example.out_ids)
    return tape, {"untrained_p_target": after["p_target_after"],
                  "untrained_predicted": after["predicted_after"],
                  "untrained_loss": float(np.asarray(tape["loss"]).reshape(-1)[0])}


def run_backward(tape: Tape, lr: float) -> None:
    """The reverse pass, then one plain SGD step θ ← θ − η g, recorded for showing."""
    sgd_update(tape, lr, _loss_with)


def _loss_with(tape: Tape, params: dict[str, np.ndarray]) -> tuple[float, dict]:
    """The same sentence pair's loss under other parameters (the updated ones): a second forward
    pass, so the narration can tell the loss, each position's p(target) and predicted word after
    the update without computing anything."""
    config = Config.from_dict(tape.meta["config"])
    again = Tape(params, record=False)
    logits = forward(again, config, tape.index["src.ids"].value, tape.index["tgt.ids"].value)
    loss = tape.index["loss"]
    again.run("loss", loss.op, [logits], dict(loss.attrs))
    return float(np.asarray(again.value("loss")).reshape(-1)[0]), _outcome(
        again, tape.meta["target"]["ids"])


def _outcome(tape: Tape, target_ids) -> dict:
    """Each position's p(target) and its most probable word's id."""
    p = tape["generator.probs"]
    return {"p_target_after": [float(p[t, i]) for t, i in enumerate(target_ids)],
            "predicted_after": [int(i) for i in np.argmax(p, axis=-1)]}


def run_shards(s: Setup, n_shards: int) -> dict:
    """For one step, the gradient of the corpus's first pairs as one batch and as ``n_shards``
    data shards put back together (shards.py): what ``tape.meta["shards"]`` holds."""
    from .shards import MAX_PAIRS, shard_gradients

    pairs = training_pairs(s)[:MAX_PAIRS]
    filler = s.vocab.id(END) if isinstance(s.vocab, Vocab) else None  # None: each side's <pad>
    return shard_gradients(s.params, s.config, s.vocab, pairs, n_shards, filler)


def training_pairs(s: Setup) -> list[tuple[str, str]]:
    """The sentence pairs the walk's corpus gives, as `handformer train` reads them: each line
    cut at its first comma, or the named dataset a checkpoint was trained on."""
    from ...train.data import pairs_from_lines
    from ...train.datasets import is_dataset, load_pairs

    source = (s.trained or {}).get("pairs", "default")
    if source == "default":
        return pairs_from_lines(s.dataset)
    if is_dataset(source):
        return load_pairs(source)
    raise HandformerError("--shards needs the pairs the checkpoint was trained on, and its "
                          "pairs file is never opened (a checkpoint could name any file)")


# --- what the pipeline calls (through the family registry) -----------------------------------


def prepare(options: dict) -> Setup:
    """Options (the command line's, the Python API's or a request's: config fields, preset,
    corpus, weights, checkpoint, tokenizer, shards) → a checked config and a ready model.
    ``src``, ``tgt``, ``backward`` and ``lr`` are read by ``walk`` and ``backward``."""
    options = {k: v for k, v in options.items()
               if k not in ("src", "tgt", "lr", "family", "beside_trained")}
    backward, shards = options.pop("backward", False), options.pop("shards", None)
    check_shards_flag(shards, backward)
    refuse_bpe(options.get("tokenizer"), options.pop("bpe_merges", None), "transformer")
    if options.get("checkpoint"):
        refuse_with_checkpoint(options)
    checkpoint, tokenizer = options.pop("checkpoint", None), options.pop("tokenizer", None)
    corpus, weights = options.pop("corpus", None), options.pop("weights", None)
    dataset = options.pop("dataset", None)
    config = options.pop("config", None)  # a Config already built (and checked) by the caller
    if config is None:
        config = configure(options)
    s = setup(config, corpus, weights, dataset=dataset, checkpoint=checkpoint,
              tokenizer=tokenizer or "tutorial")
    if corpus:
        s.notes.extend(_corpus_notes(s.dataset, tokenizer or "tutorial"))
    if shards is not None:  # a bad N is refused before the forward pass
        s.sharded = run_shards(s, shards)
    return s


def refuse_bpe(tokenizer: str | None, merges: int | None, family: str) -> None:
    """Byte-level BPE is learnt by hand in the decoder-only family alone."""
    if tokenizer == "bpe" or merges is not None:
        raise HandformerError(f"--tokenizer bpe: the {family} family does not learn byte-level "
                              f"BPE; walk it with --family gpt, or choose another --tokenizer")


def configure(options: dict) -> Config:
    """The preset (tutorial unless named) with the options' config fields over it."""
    fields = {k: v for k, v in options.items() if k != "preset"}
    return make_preset(options.get("preset") or "tutorial", **fields)


def walk(s: Setup, options: dict) -> Tape:
    """The sentence pair (the tutorial's when not given; "" is an empty sentence) forward."""
    src, tgt = options.get("src"), options.get("tgt")
    src, tgt = TUTORIAL_SRC if src is None else src, TUTORIAL_TGT if tgt is None else tgt
    tape = run_forward(s, src, tgt)
    if options.get("beside_trained"):
        from .beside import trained_on_the_spot

        if s.trained:
            raise HandformerError("a checkpoint's walk shows its weights before training beside "
                                  "it already; drop --beside-trained")
        example = make_example(s.vocab, src, tgt, s.config.max_len)
        tape.meta["beside"] = trained_on_the_spot(s, example, (src, tgt))
    return tape


def backward(tape: Tape, s: Setup, options: dict) -> None:
    """Every gradient and one SGD update (``lr``), and the data shards' gradients if asked."""
    lr = options.get("lr")
    run_backward(tape, 0.1 if lr is None else lr)
    if s.sharded:
        tape.meta["shards"] = s.sharded


def notes(s: Setup, tape: Tape) -> list[str]:
    return list(s.notes)


def _corpus_notes(sentences: list[str], tokenizer: str) -> list[str]:
    from ...tokenize import corpus_warning

    warning = corpus_warning(sentences, tokenizer)
    return [f"note: {warning}"] if warning else []


def refuse_with_checkpoint(options: dict) -> None:
    """A checkpoint brings its own sizes, weights and vocabulary: options that set them clash."""
    given = [k for k, v in options.items()
             if k not in ("preset", "checkpoint", "backward", "shards") and v is not None]
    if options.get("preset") not in (None, "tutorial"):
        given.append("preset")
    if given:
        flags = ", ".join("--" + k.replace("_", "-") for k in sorted(given))
        raise HandformerError(f"--checkpoint reads its sizes, weights and vocabulary from the "
                              f"checkpoint; drop {flags}")


def check_shards_flag(shards: int | None, backward: bool) -> None:
    if shards is not None and not backward:
        raise HandformerError("--shards shows gradients: add --backward")
