"""The rules every family's config shares, each refusing in one line that names the field and
its number: d_k = d_model / heads a whole number, sizes at least 1 and under their limits
(limits.py), a rate in [0, 1), a positive layer-norm ε, a seed of 0 or more.

A family's config (families/<name>/config.py) calls them in the order its own messages need;
the rules that only one family has stay in its folder.
"""

from __future__ import annotations

from .errors import ConfigError


def per_head(d_model: int, heads: int, what: str) -> int:
    """d_model / heads, the width of one head (``what``: "d_k"), refused when not whole."""
    if heads < 1:
        raise ConfigError(f"heads must be at least 1, got {heads}")
    if d_model % heads:
        fits = [h for h in range(1, d_model + 1) if d_model % h == 0]
        raise ConfigError(
            f"d_model {d_model} is not divisible by heads {heads}, so {what} = d_model / heads "
            f"is not a whole number. Choose heads from {fits[:12]} or give d_k explicitly."
        )
    return d_model // heads


def at_least_one(config, names: tuple[str, ...]) -> None:
    """Each named size 1 or more."""
    for name in names:
        if getattr(config, name) < 1:
            raise ConfigError(f"{name} must be at least 1, got {getattr(config, name)}")


def within_limits(config, bounds: tuple[tuple[str, str], ...]) -> None:
    """Each size under its limit (limits.py; ``bounds``: field → the limit's name), before
    any product of them is formed."""
    from .limits import check

    for name, bound in bounds:
        check(bound, getattr(config, name), name)


def rate(config, name: str) -> None:
    """A rate (dropout, label smoothing) in [0, 1)."""
    value = getattr(config, name)
    if not 0.0 <= value < 1.0:
        raise ConfigError(f"{name} must be in [0, 1), got {value}")


def eps_and_seed(config) -> None:
    """The layer norm's ε positive and finite; the seed 0 or more."""
    if not 0 < config.ln_eps < float("inf"):
        raise ConfigError(f"ln_eps must be positive, got {config.ln_eps}")
    if config.seed < 0:
        raise ConfigError(f"seed must be 0 or more, got {config.seed}")
