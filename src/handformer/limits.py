"""Upper bounds on what a file or an option may make handformer allocate, checked up front.

Files come from other people (tapes, weights, checkpoints, model folders, corpora) and their
sizes are read cheaply first (the file's length, a header, the metadata, a config), so a small
file that claims a huge model is refused by name before any memory is taken. The bounds are
far above every preset (the paper's model is 44 million numbers); raise one on purpose with
the environment variable ``HANDFORMER_LIMITS``, e.g. ``HANDFORMER_LIMITS=numbers=1e9,width=4000``.
"""

from __future__ import annotations

import os

from .errors import LimitError  # noqa: F401  (raised here)

ENV = "HANDFORMER_LIMITS"
MIB = 2**20
MOST = 1e15  # the largest value HANDFORMER_LIMITS may give a limit (a petabyte of MiB, ...)

# name: (default, what it bounds) — the names are those HANDFORMER_LIMITS takes.
DEFAULTS: dict[str, tuple[int, str]] = {
    "numbers": (2**28, "weights of the model, vocabulary included (float64 numbers)"),
    "vocab": (2_000_000, "words or pieces in a vocabulary"),
    "d_model": (2**16, "embedding width d_model"),
    "d_ff": (2**18, "feed-forward width d_ff"),
    "heads": (1024, "attention heads"),
    "layers": (256, "layers of one stack"),
    "max_len": (2**14, "longest sentence, in tokens (max_len)"),
    "tape_numbers": (2**27, "numbers kept on one tape (every step of a walk)"),
    "json_numbers": (2**25, "numbers written into one JSON tape"),
    "file_mib": (4096, "size of a weights or checkpoint file, in MiB"),
    # Text files become Python objects: a 32 MiB corpus of one-letter lines is 16 million
    # strings (about 1 GiB); a 64 MiB tape of "0.0," is 16 million floats.
    "text_mib": (32, "size of a corpus, pairs, vocabulary or config file, in MiB"),
    "tape_mib": (64, "size of a JSON tape file, in MiB"),
    "width": (10_000, "terminal width, in columns"),
    "beam": (1024, "beam width"),
    "stream_seconds": (30, "seconds to wait for the other end of a pipe or a device"),
}




def limit(name: str) -> int:
    """The bound called ``name``: its default, or the value HANDFORMER_LIMITS gives it."""
    return _overrides().get(name, DEFAULTS[name][0])


def _overrides() -> dict[str, int]:
    text = os.environ.get(ENV, "").strip()
    out = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = item.partition("=")
        name = name.strip()
        if name not in DEFAULTS:
            raise LimitError(f"{ENV}: unknown limit {name!r}; known: {', '.join(DEFAULTS)}")
        try:
            number = float(value)
        except ValueError:
            number = float("nan")
        if not number >= 0 or number == float("inf"):
            raise LimitError(f"{ENV}: {name} needs a number, got {value.strip()!r}")
        if number > MOST:
            raise LimitError(f"{ENV}: {name} is {value.strip()}, over the most any limit "
                             f"may be ({MOST:.0e})")
        out[name] = int(number)
    return out


def check(name: str, value: int, what: str | None = None) -> None:
    """Refuse ``value`` above the limit ``name``, naming the quantity, its value and the limit."""
    bound = limit(name)
    if value > bound:
        raise LimitError(f"{what or DEFAULTS[name][1]} is {value:,}, over the limit of "
                         f"{bound:,}; if this is meant, raise it: {ENV}={name}={value}")


def check_file(path, name: str = "text_mib", what: str = "file") -> int:
    """The file's size in bytes, refused if over ``name`` MiB (read from the file system only)."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return 0  # the reader that follows says why it cannot open the file
    bound = limit(name) * MIB
    if size > bound:
        raise LimitError(f"{what} {str(path)!r} is {size / MIB:,.0f} MiB, over the limit of "
                         f"{bound // MIB:,} MiB; if this is meant, raise it: "
                         f"{ENV}={name}={size // MIB + 1}")
    return size


def tape_numbers(cfg, n: int, m: int, vocab_size: int) -> int:
    """An upper estimate of the numbers a recorded walk keeps (1.5–1.8 × what it does keep,
    measured on the presets): every attention block's h × n × m scores, weights and per-head
    views, each layer's rows, and the output distributions m × V."""
    def attn(q, k, h):
        return 8 * h * q * k + 16 * q * h * max(cfg.d_k, cfg.d_v)

    rows = 16 * cfg.d_model + 4 * cfg.d_ff
    return (cfg.encoder_layers * (attn(n, n, cfg.heads) + n * rows)
            + cfg.decoder_layers * (attn(m, m, cfg.decoder_heads)
                                    + attn(m, n, cfg.decoder_heads) + m * rows)
            + 4 * m * vocab_size + 4 * (n + m) * cfg.d_model)


def check_walk(cfg, n: int, m: int, vocab_size: int, copies: int = 1) -> None:
    """Refuse a walk whose tape would not fit, naming the sizes that make it large."""
    numbers = copies * tape_numbers(cfg, n, m, vocab_size)
    if numbers > limit("tape_numbers"):
        check("tape_numbers", numbers,
              f"the count of numbers this run keeps ({n} source and {m} target tokens, "
              f"{cfg.heads} heads, {cfg.encoder_layers}+{cfg.decoder_layers} layers, "
              f"d_model {cfg.d_model}, vocabulary {vocab_size:,})")
