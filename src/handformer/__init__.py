"""handformer: a Transformer computed by hand, every number of every step with its formula."""

from .api import walk  # the public Python API: sentences in, a tape out
from .config import Config, preset
from .engine.tape import Step, Tape
from .errors import ConfigError, HandformerError
from .render import notebook as _notebook  # noqa: F401  (sets Tape.html_hook for Jupyter)

__all__ = ["Config", "ConfigError", "HandformerError", "Step", "Tape", "preset", "walk"]
__version__ = "0.1.0"
