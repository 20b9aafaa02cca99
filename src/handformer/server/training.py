"""Train and translate requests: their fields, checked, and the translation as JSON.

Training reads pairs ("source<TAB>target" lines), or a corpus whose lines are cut at their tab,
else at their first comma of either width ("," or "，"), or the tutorial's pairs. A corpus line
with no separator is refused by its number (it would otherwise train itself → itself).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..commands.translate import DEFAULT_ALPHA
from ..errors import TokenizerError
from ..families import registry
from ..text import TUTORIAL_DATASET
from ..train import loop
from ..train.data import default_pairs, pairs_vocab, parse_pairs
from . import fields
from .budget import check_train, train_numbers
from .limits import (
    Limits,
    RequestError,
    check_corpus,
    check_model,
    check_range,
    check_sentence,
    weight_count,
)
from .requests import build_config, dataset_of, tokenizer_of

TRAIN_FIELDS, TRANSLATE_FIELDS = set(fields.TRAIN), set(fields.TRANSLATE)


def parse_train(body, limits: Limits):
    """(config, pairs, loop.Options, the price of one step in numbers) of a train request;
    defaults are `handformer train`'s. The price is checked against the server's limits
    before anything is allocated (budget.train_numbers)."""
    body = fields.read(body, fields.TRAIN)
    cfg = build_config(body)
    pairs = _pairs(body, limits)
    defaults = loop.Options()
    epochs = check_range(body.get("epochs", defaults.epochs), "epochs", 1, limits.max_epochs)
    batch = check_range(body.get("batch_size", defaults.batch_size), "batch_size", 1, 4096)
    lr = check_lr(body.get("lr", defaults.lr))
    optimizer = body.get("optimizer", defaults.optimizer)
    if optimizer not in ("adam", "sgd"):
        raise RequestError(f"optimizer must be 'adam' or 'sgd', got {optimizer!r}", "optimizer")
    tokenizer = tokenizer_of(body)
    vocab = _pairs_vocab(pairs, tokenizer)
    family = registry.for_pairs()  # the family the training loop on pairs trains
    check_model(family, cfg, len(vocab), limits, "config" if body.get("config") else "preset")
    price = _step_price(cfg, vocab, weight_count(family, cfg, len(vocab)), pairs)
    numbers = check_train(price, limits, batch)
    return cfg, pairs, loop.Options(epochs=epochs, lr=float(lr), optimizer=optimizer,
                                    batch_size=batch, tokenizer=tokenizer), numbers


def check_lr(lr) -> float:
    """A learning rate a job takes: a number in (0, 10]."""
    if not 0 < lr <= 10:
        raise RequestError(f"lr must be a number in (0, 10], got {lr!r}", "lr")
    return float(lr)


def _pairs_vocab(pairs, tokenizer: str):
    try:
        return pairs_vocab(pairs, tokenizer)
    except TokenizerError as err:
        raise RequestError(str(err), "tokenizer") from None


def _step_price(cfg, vocab, weights: int, pairs):
    """batch_size → the numbers one step holds (budget.train_numbers), for these pairs."""
    lengths = [(len(vocab.tokenize(s)), len(vocab.tokenize(t))) for s, t in pairs]
    return lambda batch: train_numbers(cfg, len(vocab), weights, lengths, batch)


def _pairs(body: dict, limits: Limits) -> list[tuple[str, str]]:
    if body.get("pairs"):
        pairs = parse_pairs(check_corpus(body["pairs"], "pairs", limits), "pairs")
        if not pairs:
            raise RequestError("pairs has no 'source<TAB>target' line", "pairs")
        return pairs
    return corpus_pairs(dataset_of(body, limits))


def corpus_pairs(lines) -> list[tuple[str, str]]:
    """The pairs of a corpus's lines: the tutorial's own pairs for its dataset (or none given),
    as `handformer train` reads them; any other corpus through ``split_lines``."""
    if lines is None or list(lines) == list(TUTORIAL_DATASET):
        return default_pairs()
    return split_lines(lines)


SEPARATOR = re.compile("\t|[,，]")  # a tab, else the first comma of either width


def split_lines(lines) -> list[tuple[str, str]]:
    """Each corpus line cut at its tab, else at its first comma, ASCII or full-width ("，").
    A line with neither, or with nothing on one side, is refused by its number (counting the
    corpus's non-empty lines, as the box shows them)."""
    out = []
    for number, line in enumerate(lines, 1):
        cut = "\t" if "\t" in line else SEPARATOR.search(line)
        at = -1 if cut is None else line.index(cut) if isinstance(cut, str) else cut.start()
        pair = (line[:at].strip(), line[at + 1:].strip())
        if at < 0 or not pair[0] or not pair[1]:
            raise RequestError(f"corpus line {number} has no tab or comma between a source and "
                               f"a target: {line[:60]}", "corpus")
        out.append(pair)
    return out


@dataclass
class TranslateRequest:
    job: str
    sentence: str
    beam: int = 1
    alpha: float = DEFAULT_ALPHA  # translate's and evaluate's
    max_length: int | None = None
    explain: bool = True


def parse_translate(body, limits: Limits) -> TranslateRequest:
    body = fields.read(body, fields.TRANSLATE)
    job = body.get("job")
    if job is None:
        raise RequestError("job must be the id that POST /api/train answered", "job")
    sentence = check_sentence(body.get("sentence"), "sentence", limits)
    beam = check_range(body.get("beam", 1), "beam", 1, limits.max_beam)
    alpha = body.get("alpha", TranslateRequest.alpha)
    if not 0 <= alpha <= 5:
        raise RequestError(f"alpha must be a number in [0, 5], got {alpha!r}", "alpha")
    length = body.get("max_length")
    if length is not None:
        length = check_range(length, "max_length", 1, 128)
    explain = body.get("explain", True)
    return TranslateRequest(job, sentence, beam, float(alpha), length, explain)


def translation_json(run, t: TranslateRequest) -> dict:
    """The output words, its score, every decoding step's candidates and choice, and (explain)
    the decoding panels as `translate --explain` narrates them."""
    from ..families import registry
    from . import pages

    family = registry.for_pairs()  # the family the training loop on pairs trains
    result = family.decode(run.params, run.config, run.vocab, t.sentence, t.beam, t.alpha,
                       t.max_length, record=t.explain, k=5)
    words = run.vocab.target.tokens  # the steps hold target ids
    steps = [{"prefixes": [[words[i] for i in p] for p in s.prefixes],
              "top": [[[words[i], p] for i, p in row] for row in s.top],
              "chosen": [{"hypothesis": h, "token": words[w], "score": score}
                         for h, w, score in s.chosen]} for s in result.steps]
    out = {"tokens": result.tokens, "text": " ".join(result.tokens), "score": result.score,
           "finished": result.finished, "beam": t.beam, "steps": steps}
    if t.explain:
        out |= pages.decode_panels(family, result, run.vocab)
    return out
