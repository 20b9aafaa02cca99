"""PyTorch, imported only where a command or a test needs it (`handformer verify`, `train
--engine torch`, every family's torch reference in its folder): the walkthrough never loads
torch, and a missing torch is one clear line."""

from __future__ import annotations

from ..errors import TorchMissing, TorchUnsupported  # noqa: F401  (raised here)


def import_torch():
    try:
        import torch
    except ImportError:
        raise TorchMissing(
            "PyTorch is not installed; `handformer verify` and `train --engine torch` need it. "
            "Install it with: pip install -e '.[torch]' in handformer's checkout") from None
    return torch
