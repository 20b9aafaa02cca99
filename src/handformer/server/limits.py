"""What one request may ask for: sizes a laptop answers in well under a second, or refuses.

Every refusal is a RequestError naming the field, the value and the limit, answered as 422
(413 for a body too large to read at all).
"""

from __future__ import annotations

import math
from dataclasses import dataclass


class RequestError(Exception):
    """A request the server will not run; ``field`` is the JSON field it concerns."""

    def __init__(self, message: str, field: str | None = None, status: int = 422):
        super().__init__(message)
        self.message, self.field, self.status = message, field, status


@dataclass(frozen=True)
class Limits:
    max_body: int = 256 * 1024  # bytes of one request body
    max_sentence_chars: int = 500
    max_sentence_words: int = 48
    max_corpus_chars: int = 64 * 1024
    max_corpus_lines: int = 400
    max_weights: int = 2_000_000  # weights of one model (the small preset has about 60 000)
    max_epochs: int = 2000
    max_jobs_running: int = 4  # training threads in the whole server
    max_jobs_per_session: int = 2  # running at once in one browser session
    max_models: int = 16  # trained models kept in memory, least recently used dropped first
    max_pause_seconds: float = 600.0  # a job paused longer is stopped (its model kept)
    max_sessions: int = 500
    max_beam: int = 8
    max_request_numbers: int = 2_000_000  # numbers one request's tapes hold (budget.py)
    max_server_numbers: int = 4_000_000  # numbers all running requests hold together
    max_step_numbers: int = 32_000_000  # numbers one training step holds (budget.py)
    budget_wait_seconds: float = 25.0  # a request waits this long for room, then 503


# Largest value of each size field, checked before and after the preset is applied.
FIELD_CAPS = {"d_model": 512, "heads": 16, "decoder_heads": 16, "d_k": 512, "d_v": 512,
              "d_ff": 2048, "encoder_layers": 6, "decoder_layers": 6, "layers": 6,
              "max_len": 128}


def check_caps(values: dict, field: str | None = None, source: str = "config.") -> None:
    """Each size within FIELD_CAPS; the error names ``field`` (default: config.<name>)."""
    for name, cap in FIELD_CAPS.items():
        value = values.get(name)
        if isinstance(value, int) and value > cap:
            raise RequestError(f"{source}{name} is {value:,}, more than this server's limit "
                               f"of {cap:,}", field or f"config.{name}")


def weight_count(family, c, vocab) -> int:
    """Every number of the model's parameters, counted off the family's parameter shapes
    (nothing is allocated); ``vocab``: a size, or (source, target) sizes (text.size_of)."""
    return sum(math.prod(shape) for shape, _ in family.param_shapes(c, vocab).values())


def check_model(family, c, vocab, limits: Limits, field: str = "config") -> None:
    """The built model within limits. The overrides were checked already, so a size over its
    cap here is the preset's own: the error then names "preset"."""
    check_caps(c.to_dict(), "preset", f"the {c.preset} preset's ")
    n = weight_count(family, c, vocab)
    if n > limits.max_weights:
        raise RequestError(f"this model would have {n:,} parameters, more than this server's "
                           f"limit of {limits.max_weights:,}; choose smaller sizes", field)


def check_sentence(text, field: str, limits: Limits) -> str:
    words = len(_check_text(text, field, limits.max_sentence_chars).split())
    if words > limits.max_sentence_words:
        raise RequestError(f"{field} has {words} words, more than the limit of "
                           f"{limits.max_sentence_words}", field)
    return text


def check_corpus(text, field: str, limits: Limits) -> str:
    """A corpus or pairs text: one sentence (or pair) per line."""
    lines = sum(1 for line in _check_text(text, field, limits.max_corpus_chars).splitlines()
                if line.strip())
    if lines > limits.max_corpus_lines:
        raise RequestError(f"{field} has {lines:,} lines, more than the limit of "
                           f"{limits.max_corpus_lines:,}", field)
    return text


def _check_text(text, field: str, max_chars: int) -> str:
    if not isinstance(text, str):
        raise RequestError(f"{field} must be a string", field)
    if len(text) > max_chars:
        raise RequestError(f"{field} has {len(text):,} characters, more than the limit of "
                           f"{max_chars:,}", field)
    return text


def check_range(value, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(f"{field} must be a whole number, got {value!r}", field)
    if not low <= value <= high:
        raise RequestError(f"{field} is {value:,}; it must be between {low:,} and {high:,}",
                           field)
    return value
