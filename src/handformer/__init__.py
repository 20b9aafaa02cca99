"""handformer: a Transformer computed by hand, every number of every step with its formula."""

from .api import walk  # the public Python API: sentences in, a tape out
from .config import Config, ConfigError, HandformerError, preset
from .tape import Step, Tape

__all__ = ["Config", "ConfigError", "HandformerError", "Step", "Tape", "preset", "walk"]
__version__ = "0.1.0"
