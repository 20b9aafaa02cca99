"""`handformer train`'s options for real corpora: dataset, tokenizer, vocabulary, batching,
early stopping and engine; and the defaults that change once the pairs are a real corpus."""

from __future__ import annotations

import click

from ..cli_checks import Finite, Whole
from ..tokenize import TOKENIZERS

MAX_TARGET_MERGES = 32_000  # train/target_bpe.py's, written here so that --help loads no numpy

# Run options (saved in the checkpoint, see train.loop.Options) that these flags set.
RUN_KEYS = ("tokenizer", "vocab_size", "min_count", "shared_vocab", "by_length", "patience",
            "limit", "bleu", "stop_on", "bleu_pairs", "time_budget", "target_bpe")
# With --dataset: the recipe that trains (the README's translator section measured it).
DATASET_DEFAULTS = (("schedule", "warmup"), ("batch_size", 64), ("patience", 5),
                    ("stop_on", "bleu"), ("bleu_pairs", 500), ("min_count", 3), ("epochs", 30),
                    ("time_budget", 30.0))
# With --dataset and no flag that shapes the model: the recipe's model (docs/translator.md;
# its 30-minute run on 2 cores reached test BLEU 23.16, lower-cased, on Tatoeba zh→en).
DATASET_MODEL = (("preset", "small"), ("d_model", 128), ("heads", 4), ("d_ff", 512),
                 ("layers", 2), ("dropout", 0.1), ("label_smoothing", 0.1))
# With --dataset tatoeba --direction zh-en: English as byte-level BPE of this many merges
# (docs/translator.md: in the same 30 minutes it beat the truecased word vocabulary, test BLEU
# 26.07 against 24.60 and chrF2 43.76 against 42.86, greedy, and no translation holds <unk>).
TATOEBA_MERGES = 4000
# Config flags that do not choose the model's shape: given alone, the recipe's model stays.
NOT_SHAPE = ("seed", "dropout", "label_smoothing")


def corpus_options(func):
    """Options of `train` beyond the tutorial's three lines."""
    options = [
        click.option("--dataset", type=click.Choice(["hsk", "tatoeba"]), default=None,
                     help="hsk: HSK sentence pairs (hsk-sentences-audio, CC-BY-SA 4.0); "
                          "tatoeba: Tatoeba's Mandarin-English pairs (via hsg, CC-BY 2.0 FR)"),
        click.option("--simplified/--as-written", "simplify", default=True, show_default=True,
                     help="with --dataset tatoeba: convert traditional characters to "
                          "simplified, or keep them as written"),
        click.option("--direction", type=click.Choice(["zh-en", "en-zh"]), default="zh-en",
                     show_default=True, help="with --dataset: which side is the source"),
        click.option("--levels", default="1-3", show_default=True,
                     help="with --dataset hsk: HSK levels, e.g. 1-3 or 1,4"),
        click.option("--tokenizer", type=click.Choice(TOKENIZERS), default=None,
                     help="tutorial, words, char or jieba  [default: char for --dataset, "
                          "words for --pairs with other presets than tutorial, else tutorial]"),
        click.option("--vocab-size", type=Whole(1, None), default=None,
                     help="keep the most frequent words; the rest read <unk>"),
        click.option("--min-count", type=Whole(1, None), default=None,
                     help="words seen fewer times read <unk>  [default: 3 with --dataset, "
                          "else 1]"),
        click.option("--shared-vocab/--vocab-per-side", default=None,
                     help="one vocabulary of both sides' words, or one per side (the source's "
                          "for the encoder, the target's for the decoder and the generator; "
                          "--tie-embeddings needs a shared one)  [default: per side for "
                          "--dataset and --pairs, shared for the tutorial's pairs]"),
        click.option("--by-length/--no-by-length", default=None,
                     help="batches of similar lengths  [default: on for real corpora]"),
        click.option("--patience", type=Whole(1, None), default=None,
                     help="stop after this many epochs without a better validation score; the "
                          "best weights go to NAME.best.ckpt  [default: 5 with --dataset]"),
        click.option("--stop-on", type=click.Choice(["loss", "bleu"]), default=None,
                     help="the validation score --patience watches  [default: bleu with "
                          "--dataset, else loss]"),
        click.option("--bleu-pairs", type=Whole(1, None), default=None,
                     help="validation BLEU on the first N validation pairs only  [default: "
                          "500 with --dataset, else all]"),
        click.option("--limit", type=Whole(1, None), default=None, help="train on the first N pairs only"),
        click.option("--target-bpe", type=Whole(0, MAX_TARGET_MERGES), default=None,
                     metavar="MERGES",
                     help="the target side (English with --direction zh-en) as byte-level BPE "
                          "with MERGES merges, learnt on the training part as written (cased): "
                          "every byte is in its table, so no translation holds <unk> "
                          "(--min-count and --vocab-size then cut the source only); 0: words, "
                          f"recased by a truecaser  [default: {TATOEBA_MERGES} with --dataset "
                          "tatoeba --direction zh-en, else 0]"),
        click.option("--time-budget", type=Finite(0.0, 10_000_000.0), default=None,
                     metavar="MINUTES",
                     help="stop training when MINUTES have passed (the partial epoch is "
                          "validated and saved) and evaluate the best checkpoint on the test "
                          "part; the warm-up schedule then decays to 0 at the step the budget "
                          "is estimated to hold; 0: no budget  [default: 30 with --dataset]"),
        click.option("--bleu/--no-bleu", default=None,
                     help="validation BLEU every epoch  [default: on for real corpora]"),
        click.option("--engine", type=click.Choice(["numpy", "torch"]), default="numpy",
                     show_default=True,
                     help="numpy: handformer's own engine; torch: the same model in PyTorch "
                          "(runs under torchrun with DistributedDataParallel)"),
        click.option("--device", type=click.Choice(["auto", "cpu", "cuda"]), default=None,
                     help="with --engine torch: where to compute; auto is CUDA where torch "
                          "finds it (one GPU per process), else the CPU  [default: auto]"),
        click.option("--deterministic", is_flag=True, default=None,
                     help="with --engine torch: torch's deterministic algorithms (and "
                          "CUBLAS_WORKSPACE_CONFIG=:4096:8): what repeating a CUDA run needs"),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def corpus_defaults(given: dict, source: str, preset: str) -> dict:
    """A real corpus (any source but the tutorial's pairs) trains in float32, in batches of
    similar lengths, with one vocabulary per side, with validation BLEU; a dataset also with the paper's warm-up schedule
    scaled to the model (train.loop.resolve_schedule), batches of 64, and early stopping on the
    BLEU of 500 validation pairs; the tutorial's pairs keep every old default, and the
    tutorial preset keeps the tutorial's tokenizer for a pairs file too (its rule, its numbers).
    """
    from ..train.datasets import default_tokenizer, is_dataset

    original, given = given, dict(given)
    keep_rule = preset == "tutorial" and not is_dataset(source)
    given.setdefault("tokenizer", "tutorial" if keep_rule else default_tokenizer(source))
    if source != "default":
        for key, value in (("dtype", "float32"), ("by_length", True), ("bleu", True),
                           ("shared_vocab", False)):
            given.setdefault(key, value)
    if is_dataset(source):
        for key, value in DATASET_DEFAULTS:
            given.setdefault(key, value)
        if not given["bleu"] and given["stop_on"] == "bleu":  # --no-bleu: watch the loss
            given["stop_on"] = "loss" if "stop_on" not in original else "bleu"
    if source.startswith("tatoeba:zh-en:") and not given.get("shared_vocab"):
        given.setdefault("target_bpe", TATOEBA_MERGES)
    if not given.get("target_bpe"):  # 0: a word vocabulary
        given.pop("target_bpe", None)
    if not given.get("time_budget"):  # 0: no budget
        given.pop("time_budget", None)
    if source != "default" and given.get("schedule") == "warmup":
        given.setdefault("lr", None)  # train.loop.resolve_schedule: peak 7e-4 at d_model 128
        given.setdefault("warmup", None)  # one epoch of steps, within 100-4000
    return given


def dataset_model(o: dict, source: str) -> bool:
    """With a dataset and no flag that shapes the model (--preset, --d-model, --layers, …):
    the recipe's model (DATASET_MODEL) filled into the command's options ``o``, each field the
    user gave (--dropout, --label-smoothing) kept. True when the recipe chose the model."""
    from ..cli import config_fields
    from ..families.registry import declared
    from ..train.datasets import is_dataset

    shaping = {"preset", *config_fields(), *declared()} - set(NOT_SHAPE)
    if not is_dataset(source) or any(o.get(k) is not None for k in shaping):
        return False
    for key, value in DATASET_MODEL:
        if o.get(key) is None:
            o[key] = value
    return True
