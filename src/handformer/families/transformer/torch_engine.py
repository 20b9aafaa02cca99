"""`handformer train --engine torch`: the same model, batches and optimizer, computed by PyTorch.

The model is torch_ref.py's torch.nn.Transformer built from our weights; the batches are
the ones the NumPy engine would draw (same generator, same order); the optimizer is
torch.optim's Adam or SGD with our hyper-parameters (train/optim.py follows its formulas).
After every epoch the weights and the optimizer's state come back under our names and layouts
(weights.py), so evaluation, checkpoints, `walk --checkpoint`, `translate` and
`evaluate` are the NumPy engine's own.

Under ``torchrun`` every process draws the same global batch and computes its share of the
rows; each share's loss is scaled by (world size / all target tokens), so DistributedDataParallel's
mean of the gradients is the gradient of the whole batch: --batch-size stays the global batch.
Dropout, when configured, draws its masks from torch's generator, seeded from the config's seed
and the rank (and torch's layer also drops inside the feed-forward block), so only dropout-free
runs match the NumPy engine number for number; two runs with the same seed and world size
match each other (on CUDA only with --deterministic: kernels that add with atomics sum in
no fixed order). Only rank 0 validates, reports and saves; its decision to stop early is
broadcast to the others, which wait for it up to VALIDATION_BUDGET_MINUTES.
"""

from __future__ import annotations

import atexit
from datetime import timedelta

import numpy as np

from ...interop.torch_ref import import_torch
from ...train.result import Result
from ...train.torch_device import device_and_backend, distributed
from .torch_ref import TorchReference
from .weights import _params_from_torch, to_state_dict

# Only rank 0 validates (greedy BLEU on the CPU) while the others wait in a collective: the
# process group's timeout, which nccl's watchdog enforces (torch's default there: 10 minutes),
# is this budget for one validation, so a long one (many validation pairs, --preset paper) is
# waited for, not killed.
VALIDATION_BUDGET_MINUTES = 60
def attach(run, device_and_backend_chosen: tuple[str, str] | None = None) -> None:
    """Move the run's training steps to torch on the chosen (device, backend) (joining
    torchrun's process group, if any); None: device_and_backend's "auto"."""
    from .torch_ref import TorchUnsupported, torch_unsupported

    reasons = torch_unsupported(run.config)
    if reasons:
        raise TorchUnsupported("--engine torch trains torch.nn.Transformer, which cannot "
                               "express this model: " + "; ".join(reasons) + ". Use the NumPy "
                               "engine, or e.g. --preset small")
    chosen = device_and_backend_chosen or device_and_backend(import_torch())
    run.engine = TorchEngine(run, *chosen)


class TorchEngine:
    def __init__(self, run, device: str, backend: str):
        torch = import_torch()
        self.torch, self.rank, self.world = torch, *distributed()
        # dropout's masks: reproducible from --seed, and different on every rank (other rows)
        torch.manual_seed(int(np.random.SeedSequence([run.config.seed, self.rank])
                              .generate_state(1)[0]))
        # With CUDA: the GPU cuda:LOCAL_RANK, the model and every batch moved to it, and nccl.
        # Without: CPU and gloo.
        self.device = device
        if self.device != "cpu":
            torch.cuda.set_device(self.device)
        if self.world > 1 and not torch.distributed.is_initialized():
            torch.distributed.init_process_group(
                backend, timeout=timedelta(minutes=VALIDATION_BUDGET_MINUTES))
            atexit.register(torch.distributed.destroy_process_group)
        self.ref = TorchReference(run.params, run.config, dtype=run.options.dtype)
        self.ref.to(self.device)
        self.net = _network(torch, self.ref, run.config.dropout)
        if self.world > 1:
            ids = None if self.device == "cpu" else [torch.device(self.device).index]
            self.net = torch.nn.parallel.DistributedDataParallel(self.net, device_ids=ids)
        self.names = [n.removeprefix("transformer.") for n, _ in
                      self.ref.modules.named_parameters()]
        self.params = list(self.ref.modules.parameters())
        self.opt = _optimizer(torch, self.params, run.options)
        if run.optimizer.state:
            self._load_state(run)

    def step(self, run, batch) -> Result:
        """One optimizer step on the global batch; this process computes its rows."""
        t, o = self.torch, run.options
        rows = np.array_split(np.arange(len(batch.src)), self.world)[self.rank]
        weights = batch.weights[rows] if len(rows) else np.zeros_like(batch.weights[:1])
        rows = rows if len(rows) else np.arange(1)  # an empty share still joins the all-reduce
        logits = self.net(batch.src[rows], batch.tgt_in[rows], batch.src_pad[rows],
                          batch.tgt_pad[rows])
        per = t.nn.functional.cross_entropy(
            logits.reshape(-1, logits.shape[-1]),
            t.as_tensor(batch.tgt_out[rows].reshape(-1), device=self.device),
            reduction="none", label_smoothing=run.config.label_smoothing)
        w = t.as_tensor(weights.reshape(-1), device=self.device).to(per.dtype)
        total = (per * w).sum()
        (total * (self.world / float(batch.weights.sum()))).backward()
        if o.clip is not None:
            t.nn.utils.clip_grad_norm_(self.params, o.clip)
        lr = _lr(run)
        for group in self.opt.param_groups:
            group["lr"] = lr
        self.opt.step()
        self.opt.zero_grad(set_to_none=True)
        run.optimizer.step_count += 1
        return self._metrics(logits, batch, rows, weights, total)

    def _metrics(self, logits, batch, rows, weights, total) -> Result:
        """Loss and accuracy of the whole batch (summed over the processes)."""
        right = (logits.detach().argmax(-1).cpu().numpy() == batch.tgt_out[rows])
        right |= batch.tgt_pad[rows]
        right &= weights > 0
        sums = self.torch.tensor([float(total.detach()), float((right & ~batch.tgt_pad[rows]).sum()),
                                  float((right.all(axis=-1) & (weights.sum(-1) > 0)).sum())],
                                 dtype=self.torch.float64, device=self.device)
        if self.world > 1:
            self.torch.distributed.all_reduce(sums)
        tokens = batch.tokens
        return Result(float(sums[0]) / tokens, int(sums[1]), tokens, int(sums[2]))

    def share_flag(self, flag: bool) -> bool:
        """Rank 0's decision (to stop early), made everyone's."""
        if self.world == 1:
            return flag
        value = self.torch.tensor([1.0 if flag else 0.0], dtype=self.torch.float64,
                                  device=self.device)
        self.torch.distributed.broadcast(value, src=0)
        return bool(value[0])

    def share_numbers(self, values: list[float]) -> list[float]:
        """Rank 0's numbers (the time budget's fitted schedule), made everyone's."""
        if self.world == 1:
            return values
        tensor = self.torch.tensor([float(v) for v in values], dtype=self.torch.float64,
                                   device=self.device)
        self.torch.distributed.broadcast(tensor, src=0)
        return [float(v) for v in tensor.cpu()]

    def sync(self, run) -> None:
        """The weights and the optimizer's state back into the run, under our names."""
        vocab = run.vocab.sizes  # (source, target)

        def ours(tensors: dict) -> dict:
            arrays = {k: v.detach().cpu().numpy() for k, v in tensors.items()}
            params = _params_from_torch(arrays, run.config, vocab)
            return {k: v.astype(run.options.dtype) for k, v in params.items()}

        for name, value in ours(dict(zip(self.names, self.params, strict=True))).items():
            run.params[name][...] = value
        run.optimizer.state = {}
        for torch_key, our_prefix in _state_keys(run.options):
            state = {n: self.opt.state[p][torch_key] for n, p in zip(self.names, self.params,
                                                                       strict=True)}
            run.optimizer.state |= {our_prefix + k: v for k, v in ours(state).items()}

    def _load_state(self, run) -> None:
        """Resume: our saved optimizer state into torch's (the inverse of sync)."""
        t = self.torch
        for torch_key, prefix in _state_keys(run.options):
            ours = {k[len(prefix):]: v for k, v in run.optimizer.state.items()
                    if k.startswith(prefix)}
            state = to_state_dict(ours, run.config)
            for name, p in zip(self.names, self.params, strict=True):
                self.opt.state[p][torch_key] = t.as_tensor(np.array(state[name])).to(
                    device=p.device, dtype=p.dtype)
                if run.options.optimizer == "adam":
                    self.opt.state[p]["step"] = t.tensor(float(run.optimizer.step_count))


def _state_keys(options) -> list[tuple[str, str]]:
    """(torch's state key, our state's name prefix) of the optimizer (see train/optim.py);
    plain SGD keeps no state."""
    if options.optimizer == "adam":
        return [("exp_avg", "m."), ("exp_avg_sq", "v.")]
    return [("momentum_buffer", "")] if options.momentum else []


def _lr(run) -> float:
    from ...train.loop import step_lr

    lr = step_lr(run)
    return run.options.lr if lr is None else lr


def _optimizer(torch, params, options):
    """torch.optim with our hyper-parameters (Adam β 0.9/0.98, ε 1e-9; SGD with momentum)."""
    if options.optimizer == "adam":
        return torch.optim.Adam(params, lr=options.lr, betas=(0.9, 0.98), eps=1e-9)
    return torch.optim.SGD(params, lr=options.lr, momentum=options.momentum)


def _network(torch, ref: TorchReference, p: float):
    """The reference's modules as one nn.Module whose forward gives the logits (what
    DistributedDataParallel wraps), with the config's dropout where the reference has none."""
    for module in ref.transformer.modules():
        if isinstance(module, torch.nn.Dropout):
            module.p = p
        elif isinstance(module, torch.nn.MultiheadAttention):
            module.dropout = p
    if p:
        plain = ref.embed
        ref.embed = lambda table, ids: torch.nn.functional.dropout(plain(table, ids), p)

    class Network(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.parts = ref.modules

        def forward(self, src, tgt, src_pad, tgt_pad):
            return ref._run(src, tgt, src_pad, tgt_pad)["generator.logits"]

    return Network()
