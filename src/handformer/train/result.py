"""What one training batch gives back, whichever engine computed it: the loss, the counts the
epoch's accuracy is made of, and every parameter's gradient."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Result:
    loss: float  # mean cross-entropy over the batch's real target tokens
    correct: int  # target tokens whose argmax prediction is right
    tokens: int
    exact: int  # pairs with every target token right (teacher forcing)
    grads: dict | None = None
