"""The decoder-only model's recap teaches like the encoder-decoder's (issue 19): the loss beside
uniform guessing (ln V), and the before/after table of each position's p(target). The numbers
are redone in torch (a GPT from torch's own parts with the tape's weights, torch's autograd and
one SGD step on torch's parameters), not read back from our tape."""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F

import handformer
from handformer.families.gpt.config import GptConfig
from handformer.families.gpt.torch_ref import TorchGpt
from handformer.narrate import build

LR = 0.1


def torch_before_after(tape) -> tuple[float, float, np.ndarray, np.ndarray]:
    cfg = GptConfig.from_dict(tape.meta["config"])
    ids, target = list(tape.meta["tgt"]["ids"]), list(tape.meta["target"]["ids"])
    model = TorchGpt(cfg, tape.params)
    logits = model(ids)["generator.logits"]
    loss = F.cross_entropy(logits, torch.tensor(target))
    loss.backward()
    p_before = torch.softmax(logits, -1)[torch.arange(len(ids)), target].detach().numpy()
    with torch.no_grad():
        for p in model.named().values():  # ours: no attention biases unless attn_bias
            p -= LR * p.grad
    logits = model(ids)["generator.logits"].detach()
    loss_after = F.cross_entropy(logits, torch.tensor(target))
    p_after = torch.softmax(logits, -1)[torch.arange(len(ids)), target].numpy()
    return float(loss.detach()), float(loss_after), p_before, p_after


def test_the_gpt_recap_compares_the_loss_with_guessing_and_tables_p_target_before_and_after():
    tape = handformer.walk(family="gpt", backward=True, lr=LR)
    loss, loss_after, p_before, p_after = torch_before_after(tape)
    recap = next(s for s in build(tape, "en") if s.id == "recap")
    text = " ".join(recap.paragraphs)
    V = len(tape.meta["vocab"])
    assert f"ln {V} = {math.log(V):.3f}" in text
    assert f"L = {loss:.3f}" in text and f"L = {loss_after:.3f}" in text
    assert ("did worse than that" in text) == (loss > math.log(V))
    table = recap.equation[0]
    assert table.name == "recap.p_target" and table.shape == (len(p_before), 2)
    assert np.allclose(table.value[:, 0], p_before, atol=1e-10)
    assert np.allclose(table.value[:, 1], p_after, atol=1e-10)
    zh = " ".join(next(s for s in build(tape, "zh") if s.id == "recap").paragraphs)
    assert f"ln {V} = {math.log(V):.3f}" in zh and "更新前" in zh
