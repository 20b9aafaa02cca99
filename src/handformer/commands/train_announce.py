"""The first lines of `handformer train`: the data's credit, the model, the peak learning rate,
the number type and which default chose it, a warning for a toy-sized model on a real corpus,
the schedule and the setup."""

from __future__ import annotations

import click

from .. import i18n


def _peak_lr(run) -> float:
    """The warm-up schedule's rate at the end of its warm-up, its highest."""
    from ..train.optim import warmup_lr

    opts = run.options
    return warmup_lr(opts.warmup, run.config.d_model, opts.warmup, opts.lr)


def _lr_text(run, lang: str) -> str:
    """The learning rate a user compares: the peak under the warm-up schedule (its --lr is a
    factor, not a rate), else the constant rate."""
    if run.options.schedule == "warmup":
        return i18n.t(lang, "train.peak_lr", peak=_peak_lr(run))
    return i18n.t(lang, "train.lr", lr=run.options.lr)


def _dtype_text(dtype: str, given: bool, source: str, lang: str) -> str:
    """The number type, and where it was not asked for, which default chose it."""
    if given:
        return dtype
    key = "train.dtype_tutorial" if source == "default" else "train.dtype_corpus"
    return i18n.t(lang, key, dtype=dtype)


# Below this width a model is a walkthrough's toy: on a corpus of thousands of pairs it learns
# little (the tutorial's 6-wide model on Tatoeba: test BLEU about 1; docs/translator.md's recipe
# is 128 wide). Judgements, not measured edges: the warning says what to try, it refuses nothing.
SMALL_D_MODEL = 64
BIG_CORPUS = 1000  # training pairs: HSK levels 1-3 hold about 1,240, Tatoeba about 53,000


def _warn_if_small(run, source: str, lang: str) -> None:
    """One line when a real corpus meets a toy-sized model (the tutorial's pairs are its own)."""
    big = source != "default" and len(run.train) >= BIG_CORPUS
    if big and run.config.d_model < SMALL_D_MODEL:
        click.echo(i18n.t(lang, "train.small_model", d_model=run.config.d_model,
                          pairs=len(run.train)), err=True)


def _shape_text(cfg, lang: str, recipe: bool) -> str:
    """The model's shape: width, layers (encoder + decoder), heads, feed-forward width; and,
    when --dataset chose it, that it is the recipe's."""
    layers = (str(cfg.encoder_layers) if cfg.encoder_layers == cfg.decoder_layers
              else f"{cfg.encoder_layers}+{cfg.decoder_layers}")
    heads = cfg.heads if cfg.decoder_heads in (None, cfg.heads) else f"{cfg.heads}/{cfg.decoder_heads}"
    shape = i18n.t(lang, "train.shape", d_model=cfg.d_model, layers=layers, heads=heads,
                   d_ff=cfg.d_ff)
    return i18n.t(lang, "train.recipe_shape", shape=shape) if recipe else shape


def announce(run, source: str, engine: str, lang: str, dtype_given: bool,
             recipe: bool = False) -> None:
    from ..train.datasets import credit_of

    cfg, opts = run.config, run.options
    if credit_of(source):
        click.echo(credit_of(source), err=True)
    held_out = i18n.t(lang, "train.held_out", n=len(run.valid)) if run.valid else ""
    click.echo(i18n.t(lang, "train.start", preset=cfg.preset, shape=_shape_text(cfg, lang, recipe),
                      init=cfg.init, pairs=len(run.train), held_out=held_out,
                      optimizer=opts.optimizer, lr=_lr_text(run, lang),
                      dtype=_dtype_text(opts.dtype, dtype_given, source, lang)), err=True)
    _warn_if_small(run, source, lang)
    if opts.schedule == "warmup":
        click.echo(i18n.t(lang, "train.schedule", factor=opts.lr, warmup=opts.warmup,
                          peak=_peak_lr(run)), err=True)
    if opts.time_budget and run.clock is not None and opts.schedule == "warmup":
        from ..train.budget import FIRST_STEPS

        click.echo(i18n.t(lang, "train.budget_start", minutes=opts.time_budget,
                          steps=FIRST_STEPS), err=True)
    if source == "default" and engine == "numpy":
        return  # the tutorial's run: one line, as ever
    tokenizer = opts.tokenizer if not opts.target_bpe else i18n.t(
        lang, "train.tokenizer_bpe_target", tokenizer=opts.tokenizer, merges=f"{opts.target_bpe:,}")
    click.echo(i18n.t(lang, "train.setup", test=len(run.test), tokenizer=tokenizer,
                      vocab=_vocab_text(run.vocab, lang), engine=engine,
                      world=getattr(run.engine, "world", 1)), err=True)


def _vocab_text(vocab, lang: str) -> str:
    if vocab.source is vocab.target:
        return f"{len(vocab):,}"
    n_src, n_tgt = vocab.sizes
    return i18n.t(lang, "vocab.sides", src=f"{n_src:,}", tgt=f"{n_tgt:,}")
