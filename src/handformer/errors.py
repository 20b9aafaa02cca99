"""Every error handformer raises on purpose, in one module that imports nothing.

Each is a ``HandformerError``: the command line turns it into one line on stderr and exit 2,
the web app into a 4xx answer with its text. The module that raises an error re-exports it,
so ``from handformer.files.io import OutputError`` and ``from handformer.errors import
OutputError`` name the same class.
"""

from __future__ import annotations


class HandformerError(Exception):
    """An error the user can fix; the CLI prints its message and exits with status 2."""


class ConfigError(HandformerError, ValueError):
    """Numbers that do not fit together."""


class PretrainedError(HandformerError):
    """A checkpoint folder that is missing, incomplete, or uses what the engine does not do."""


class InputError(HandformerError):
    """A file that cannot be read."""


class OutputError(HandformerError):
    """A file that cannot be written where it was asked for."""


class TapeFormatError(HandformerError):
    """A file that is not a handformer tape."""


class TorchMissing(HandformerError):
    """torch is an optional extra."""


class TorchUnsupported(HandformerError):
    """A config that torch.nn.Transformer cannot express."""


class DeviceError(HandformerError):
    """A device torch cannot use: CUDA asked for where there is none, or more processes than
    GPUs."""


class WeightsError(HandformerError):
    """A weights file that cannot be used."""


class LimitError(HandformerError):
    """A size over its limit, refused before anything that large is allocated."""


class FormulaError(HandformerError):
    """A formula that latex2mathml or mathtext cannot convert."""


class SymbolError(HandformerError):
    """A symbol in a tape that is not a formula symbol."""


class XlsxError(HandformerError):
    """A tape the workbook cannot hold: too large, or an operation with no formula."""


class SchemaError(HandformerError):
    """A value of the wrong type, outside its range, or of the wrong shape."""


class TextError(HandformerError):
    """Bad sentences or corpus files."""


class TokenizerError(HandformerError):
    """An unknown tokenizer, or one whose package is missing."""


class CheckpointError(HandformerError):
    """A checkpoint that cannot be used."""


class DatasetError(HandformerError):
    """A dataset that cannot be loaded, or options that do not fit it."""


class NonFiniteError(HandformerError):
    """Training diverged: the loss, a gradient or a weight is NaN or infinite."""


class CheckpointBusy(HandformerError):
    """Another run is training into the same checkpoint."""


class ShardError(HandformerError):
    """A shard count the batch cannot be cut into."""


class RunOverflow(HandformerError):
    """A run whose numbers leave float64: a step holds inf or NaN (weights near 1e308)."""


class UpdateOverflow(HandformerError):
    """A learning rate so large that one step leaves numbers no page or JSON can show."""
