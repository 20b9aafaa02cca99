"""A throwaway model family, written as a user would write one in a folder of their own: a
causal bag of words. Each position's prediction reads the mean of the embeddings up to it:

    h_t = (1 / (t + 1)) Σ_{j ≤ t} E[ids_j],   logits_t = h_t W + b

Its one new part, the prefix mean, is an operation it registers itself (forward, backward,
formulas); everything else is handformer's: the tape, the embedding and linear steps, the loss,
the narration's Section, the registry. Importing this module registers the family and
declares its one switch, ``--bow-scale``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from handformer.engine.initial import init_weights
from handformer.engine.layers import loss_step
from handformer.engine.ops import op
from handformer.engine.tape import Tape
from handformer.families.registry import Family, Option, declare_options, register
from handformer.narrate.document import Section
from handformer.text import END, START, TUTORIAL_DATASET, Vocab


@dataclass(frozen=True)
class BowConfig:
    preset: str = "tutorial"
    d_model: int = 4
    seed: int = 0
    bow_scale: float = 1.0
    max_len: int = 64
    # what the shared size checks read of every family
    encoder_layers = 0
    decoder_layers = 1
    decoder_heads = 1
    heads = 1

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: dict) -> BowConfig:
        return cls(**data)


def prefix_mean_forward(x, *, scale):
    counts = np.arange(1, x.shape[-2] + 1, dtype=x.dtype)[:, None]
    return scale * np.cumsum(x, axis=-2) / counts, counts


@op("bow_prefix_mean", prefix_mean_forward,
    r"$out_t = \frac{s}{t + 1} \sum_{j \le t} $x_j",
    r"\dL{$x_j} = \sum_{t \ge j} \frac{s}{t + 1} \dL{$out_t}", out="H", x="X")
def prefix_mean(g, out, args, cache, attrs):
    scaled = attrs["scale"] * g / cache
    return (np.cumsum(scaled[..., ::-1, :], axis=-2)[..., ::-1, :],)


def param_shapes(cfg: BowConfig, vocab_size: int) -> dict:
    return {"embed.weight": ((vocab_size, cfg.d_model), "embed"),
            "out.w": ((cfg.d_model, vocab_size), "weight"), "out.b": ((vocab_size,), "bias")}


def forward(tape: Tape, cfg: BowConfig, ids) -> str:
    x = tape.run("embed.tok", "embed", [tape.constant("ids", np.asarray(ids)), "embed.weight"])
    h = tape.run("bow.mean", "bow_prefix_mean", [x], {"scale": cfg.bow_scale})
    logits = tape.run("generator.logits", "linear", [h, "out.w", "out.b"])
    tape.run("generator.probs", "softmax", [logits])
    return logits


@dataclass
class Model:
    config: BowConfig
    dataset: list[str]
    vocab: Vocab
    params: dict


def configure(options: dict) -> BowConfig:
    fields = {k: options[k] for k in ("d_model", "seed", "bow_scale") if options.get(k) is not None}
    return BowConfig(preset=options.get("preset") or "tutorial", **fields)


def prepare(options: dict) -> Model:
    cfg = options.get("config") or configure(options)
    dataset = options.get("dataset") or list(TUTORIAL_DATASET)
    vocab = Vocab.from_corpus(dataset)
    return Model(cfg, dataset, vocab, init_weights(param_shapes(cfg, len(vocab)), cfg.seed))


def text_ids(model: Model, options: dict) -> list[int]:
    text = " ".join(s for s in (options.get("src"), options.get("tgt")) if s) or model.dataset[0]
    return [model.vocab.id(START), *model.vocab.encode(text, "text"), model.vocab.id(END)]


def walk(model: Model, options: dict) -> Tape:
    ids = text_ids(model, options)
    tape = Tape(model.params)
    tape.meta.update(family="bow", config=model.config.to_dict(), vocab=model.vocab.tokens,
                     tokenizer="tutorial", tgt={"tokens": model.vocab.decode(ids[:-1]),
                                                "ids": ids[:-1]},
                     target={"tokens": model.vocab.decode(ids[1:]), "ids": ids[1:]})
    loss_step(tape, forward(tape, model.config, ids[:-1]), ids[1:])
    return tape


def backward(tape: Tape, model: Model, options: dict) -> None:
    tape.backward("loss")


def narrators(tape) -> list:
    def mean(ctx) -> None:
        tokens = ctx.meta["tgt"]["tokens"]
        ctx.add(Section("bow.mean", "1", "The running mean of the embeddings",
                        ["Each position reads the mean of every embedding up to it."],
                        formula=ctx.formula("bow.mean"),
                        equation=[ctx.mat("bow.mean", "H", ctx.value("bow.mean"), tokens)],
                        steps=["bow.mean"]))

    def logits(ctx) -> None:
        ctx.add(Section("generator.logits", "2", "The next word's scores",
                        ["One linear layer turns each mean into a score per word."],
                        formula=ctx.formula("generator.logits"),
                        equation=[ctx.mat("generator.logits", "Z", ctx.value("generator.logits"),
                                          ctx.meta["tgt"]["tokens"], ctx.vocab)],
                        steps=["generator.logits"]))

    return [mean, logits]


def train(options: dict, given: dict) -> None:
    """`handformer train --family bow`: plain gradient descent on every line, one line a step."""
    import click

    model = prepare({k: options.get(k) for k in ("d_model", "seed", "bow_scale", "preset")})
    lr = options.get("lr") or 0.5
    for step in range(options.get("epochs") or 5):
        losses = []
        for line in model.dataset:
            tape = walk(model, {"src": line})
            tape.backward("loss")
            losses.append(float(tape["loss"]))
            for name, value in model.params.items():
                value -= lr * tape.grads[name]
        click.echo(f"bow step {step + 1} loss {np.mean(losses):.6f}")


def verify(options: dict) -> tuple[str, list]:
    """Against the same model in torch, written in this folder: every stage and gradient."""
    import torch

    model = prepare({k: options.get(k) for k in ("d_model", "seed", "bow_scale", "preset")})
    ids = text_ids(model, options)
    tape = walk(model, options)
    tape.backward("loss")
    theirs = {k: torch.tensor(v, requires_grad=True) for k, v in model.params.items()}
    x = theirs["embed.weight"][torch.tensor(ids[:-1])]
    h = model.config.bow_scale * torch.cumsum(x, 0) / torch.arange(1, len(ids), dtype=x.dtype)[:, None]
    z = h @ theirs["out.w"] + theirs["out.b"]
    loss = torch.nn.functional.cross_entropy(z, torch.tensor(ids[1:]))
    loss.backward()
    rows = [("bow.mean", h.shape, float((torch.tensor(tape["bow.mean"]) - h).abs().max())),
            ("generator.logits", z.shape, float((torch.tensor(tape["generator.logits"]) - z).abs().max())),
            ("loss", (), abs(float(tape["loss"]) - loss.item()))]
    rows += [(f"∂L/∂{k}", v.shape, float(np.abs(tape.grads[k] - v.grad.numpy()).max()))
             for k, v in theirs.items()]
    return "ours vs the bag of words in torch", rows


register(Family("bow", BowConfig, param_shapes, forward, narrators, prepare=prepare, walk=walk,
                backward=backward, train=train, configure=configure, verify=verify))
declare_options("bow", (Option("bow_scale", "a factor on the running mean", kind=float, lo=0.0),))
