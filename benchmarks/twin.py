"""Train a translator twice, side by side: handformer's NumPy engine and its torch twin.

Both twins start from the same initial weights (one `loop.start`, so one seed), draw the same
batches in the same order (each from its own generator, seeded alike), and step the same
optimizer (train/optim.py follows torch.optim's formulas; the torch twin is torch.optim
itself, on families/transformer/torch_ref.py's torch.nn.Transformer, through `train --engine torch`). Epochs
alternate (handformer, torch, handformer, …), each after a 0.3 s sleep so the other library's
idle BLAS/OpenMP threads stop spinning. Both use --threads threads (pinned, printed). Printed per
epoch: wall and CPU time of the training pass, target tokens per second, validation loss, the
BLEU of the first --bleu-pairs validation pairs (greedy), the load average, for each twin, and
the ratios (handformer / torch: below 1 means handformer is faster); the test pairs' BLEU
only once, after the last epoch (choosing epochs by it would be choosing on the test set). The
schedule is train's with --dataset: peak 7e-4·√(128/d_model), warm-up one epoch of steps.

    .venv/bin/python benchmarks/twin.py                        # HSK 1-3 zh→en, d_model 128
    .venv/bin/python benchmarks/twin.py --epochs 2 --limit 200 # a quick look
    .venv/bin/python benchmarks/twin.py --quick                # one epoch of a tiny model

Timings on a shared machine are noisy: quote the ratios, not the seconds.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine_line  # noqa: E402

# This folder holds html.py, which would shadow the standard library's html (sacrebleu needs it):
# off the path again once machine.py is in
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from handformer.families.transformer.config import preset  # noqa: E402
from handformer.families.transformer.greedy import translate_all  # noqa: E402
from handformer.families.transformer.torch_engine import attach  # noqa: E402
from handformer.train import checkpoint as ckpt_io  # noqa: E402
from handformer.train import loop  # noqa: E402
from handformer.train.bleu import bleu_of  # noqa: E402
from handformer.train.datasets import credit_of, load_pairs, source_name  # noqa: E402
from handformer.train.memory import keep_freed_memory  # noqa: E402


def options(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--dataset", default="hsk", choices=["hsk", "tatoeba"])
    p.add_argument("--levels", default="1-3", help="HSK levels")
    p.add_argument("--threads", type=int, default=None,
                   help="BLAS/OpenMP threads of each twin  [default: 2; 1 with --quick]")
    p.add_argument("--bleu-pairs", type=int, default=500, help="validation pairs for BLEU")
    p.add_argument("--direction", default="zh-en", choices=["zh-en", "en-zh"])
    p.add_argument("--limit", type=int, default=None, help="only the first N pairs")
    p.add_argument("--d-model", type=int, default=128)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--d-ff", type=int, default=512)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--lr", type=float, default=None,
                   help="factor of the paper's schedule  [default: peak 7e-4·√(128/d_model), "
                        "train.loop.resolve_schedule]")
    p.add_argument("--warmup", type=int, default=None, help="[default: one epoch of steps]")
    p.add_argument("--min-count", type=int, default=1)
    p.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    p.add_argument("--tokenizer", default="char", choices=["char", "jieba", "words"])
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--label-smoothing", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--save", default=None,
                   help="write handformer's twin as a checkpoint after every epoch")
    p.add_argument("--quick", action="store_true",
                   help="one epoch of 120 pairs, d_model 16, 1+1 layers, BLEU of 10 validation "
                        "pairs, 1 thread: checks that the script runs, measures little")
    a = p.parse_args(argv)
    if a.quick:
        a.epochs, a.limit, a.bleu_pairs, a.batch_size = 1, 120, 10, 8
        a.d_model, a.heads, a.d_ff, a.layers = 16, 2, 32, 1
    if a.threads is None:  # one is steadier on a busy machine, where a test runs --quick
        a.threads = 1 if a.quick else 2
    return a


def twins(a: argparse.Namespace):
    """Two runs from one start: the same weights, split, vocabulary and generator state."""
    source = source_name(a.dataset, None, a.direction, a.levels)
    cfg = preset("small", d_model=a.d_model, heads=a.heads, d_ff=a.d_ff, layers=a.layers,
                 dropout=a.dropout, label_smoothing=a.label_smoothing, seed=a.seed)
    opts = dict(epochs=a.epochs, lr=a.lr, batch_size=a.batch_size, schedule="warmup",
                warmup=a.warmup, dtype=a.dtype, tokenizer=a.tokenizer, by_length=True,
                limit=a.limit, min_count=a.min_count, shared_vocab=False)  # as train --dataset
    pairs = load_pairs(source)
    hand = loop.start(cfg, pairs, loop.Options(**opts), source)
    twin = loop.start(cfg, pairs, loop.Options(**opts), source)
    attach(twin)
    return source, hand, twin


def timed_epoch(run) -> dict:
    """One training pass: wall and CPU seconds (all threads of this process), target tokens,
    minor page faults (glibc's allocator can fault every step), the load average after it."""
    tokens = []
    time.sleep(0.3)  # the other library's idle BLAS/OpenMP threads stop spinning
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    started, cpu = time.perf_counter(), time.process_time()
    stats = loop.train_epoch(run, lambda pairs, n: tokens.append(n))
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    return stats | {"seconds": seconds, "cpu": cpu, "tokens": sum(tokens), "faults": faults,
                    "load": os.getloadavg()[0]}


def scores(run, source: str, bleu_pairs: int) -> dict:
    """Validation loss (teacher forcing) and the BLEU of the first validation pairs (greedy),
    both by the NumPy code; the test pairs are read once, at the end."""
    v = loop.evaluate(run.params, run.config, run.vocab, run.valid, dtype=run.options.dtype)
    bleu = bleu_of(run.params, run.config, run.vocab, run.texts["valid"][:bleu_pairs], source)
    return {"val_loss": v["loss"], "bleu": bleu}


HEADER = (f"{'epoch':>5} | {'hand s':>7} {'torch s':>7} {'ratio':>5} {'cpu ratio':>9} | "
          f"{'hand tok/s':>10} "
          f"{'torch tok/s':>11} | {'hand val':>8} {'torch val':>9} | {'val BLEU h':>10} "
          f"{'t':>6} {'ΔBLEU':>6} | {'faults/step h/t':>15} | {'load h/t':>9}")


def row(epoch: int, h: dict, t: dict, steps: int) -> str:
    return (f"{epoch:>5} | {h['seconds']:>7.2f} {t['seconds']:>7.2f} "
            f"{h['seconds'] / t['seconds']:>5.2f} {h['cpu'] / t['cpu']:>9.2f} | "
            f"{h['tokens'] / h['seconds']:>10,.0f} "
            f"{t['tokens'] / t['seconds']:>11,.0f} | {h['val_loss']:>8.4f} {t['val_loss']:>9.4f}"
            f" | {h['bleu']:>10.2f} {t['bleu']:>6.2f} {h['bleu'] - t['bleu']:>6.2f} | "
            f"{h['faults'] // steps:>7,}/{t['faults'] // steps:<7,} | "
            f"{h['load']:>4.2f}/{t['load']:<4.2f}")


def environment() -> str:
    import numpy as np
    import torch
    from threadpoolctl import threadpool_info

    pools = ", ".join(f"{p['internal_api']} {p.get('version')} ({p['num_threads']} threads, "
                      f"{p.get('architecture')})" for p in threadpool_info())
    return (f"{machine_line()}\nnumpy {np.__version__}, torch {torch.__version__} ({torch.get_num_threads()} "
            f"threads); thread pools: {pools}")


def main(argv=None) -> list[tuple[dict, dict]]:
    a = options(argv)
    keep_freed_memory()
    from threadpoolctl import threadpool_limits

    threadpool_limits(a.threads)
    import torch

    torch.set_num_threads(a.threads)
    source, hand, twin = twins(a)
    print(credit_of(source))
    print(environment())
    print(f"load average at the start {os.getloadavg()}; threads per twin {a.threads}")
    c = hand.config
    print(f"{source}: {len(hand.train)} training, {len(hand.valid)} validation, "
          f"{len(hand.test)} test pairs; vocabularies {hand.vocab.sizes[0]} source, "
          f"{hand.vocab.sizes[1]} target tokens ({a.tokenizer}); "
          f"d_model {c.d_model}, {c.heads} heads, d_ff {c.d_ff}, {c.encoder_layers}+"
          f"{c.decoder_layers} layers, batch {a.batch_size}, {a.dtype}, Adam, paper schedule "
          f"(factor {hand.options.lr:.4g}, warm-up {hand.options.warmup})")
    print(HEADER)
    steps = -(-len(hand.train) // a.batch_size)
    table = []
    for epoch in range(1, a.epochs + 1):
        h, t = timed_epoch(hand), timed_epoch(twin)
        h, t = h | scores(hand, source, a.bleu_pairs), t | scores(twin, source, a.bleu_pairs)
        table.append((h, t))
        print(row(epoch, h, t, steps), flush=True)
        if a.save:
            hand.history.append({k: h[k] for k in ("epoch", "loss", "accuracy", "val_loss")})
            ckpt_io.save(a.save, loop.snapshot(hand, source))
    summary(table, hand, twin, source)
    examples(hand, twin)
    return table


def summary(table, hand, twin, source) -> None:
    """Medians over the epochs (single epochs swing with the machine's load); test BLEU once,
    after the last epoch."""
    import statistics

    ratio = statistics.median(h["seconds"] / t["seconds"] for h, t in table)
    cpu = statistics.median(h["cpu"] / t["cpu"] for h, t in table)
    speed = [statistics.median(side["tokens"] / side["seconds"] for side in sides)
             for sides in zip(*table, strict=True)]
    bleu = [bleu_of(r.params, r.config, r.vocab, r.texts["test"], source) for r in (hand, twin)]
    print(f"median wall-time ratio handformer / torch {ratio:.2f} (CPU time {cpu:.2f}); median "
          f"tokens/s {speed[0]:,.0f} vs {speed[1]:,.0f}; after {len(table)} epochs test BLEU "
          f"{bleu[0]:.2f} vs {bleu[1]:.2f}; load average now {os.getloadavg()}")


def examples(hand, twin, shown: int = 3) -> None:
    """The first test sentences, as each twin translates them (greedy)."""
    sources = [s for s, _ in hand.texts["test"][:shown]]
    by_hand = translate_all(hand.params, hand.config, hand.vocab, sources)
    by_torch = translate_all(twin.params, twin.config, twin.vocab, sources)
    for (src, ref), h, t in zip(hand.texts["test"], by_hand, by_torch, strict=False):
        print(f"{src}\n  handformer: {h}\n  torch:      {t}\n  reference:  {ref}")


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
