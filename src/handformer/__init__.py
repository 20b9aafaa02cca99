"""handformer: a Transformer computed by hand, every number of every step with its formula."""

from .api import preset, walk  # the public Python API: sentences in, a tape out
from .engine.tape import Step, Tape
from .errors import ConfigError, HandformerError
from .render import notebook as _notebook  # noqa: F401  (sets Tape.html_hook for Jupyter)

__all__ = ["Config", "ConfigError", "HandformerError", "Step", "Tape", "preset", "walk"]
__version__ = "0.1.0"


def __getattr__(name: str):
    """``handformer.Config``: the default family's config class (families/transformer/
    config.py), found through the registry when first asked for."""
    if name == "Config":
        from .families import registry

        return registry.get(registry.DEFAULT).config
    raise AttributeError(f"module 'handformer' has no attribute {name!r}")
