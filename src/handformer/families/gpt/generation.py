"""`walk --family gpt --generate N`: after the prompt's forward pass, N tokens one at a time
with a key/value cache, every step on the walk's tape under ``gen.{t}.``.

Under the causal mask a position reads the earlier ones only through their keys and values
(after RoPE's turn, before grouped-query attention repeats them), which a later token never
changes. So the prompt's pass fills a cache per layer (kv_heads × n × d_k) and step t ≥ 1 runs
the one token chosen at step t − 1 through the model at its position m: its embedding, per
layer its query, key and value (turned at m), the key and value appended to the cache as a new
row, its query against every cached key, and the logits of its one row. Step 0 samples from
the prompt pass's last row. Each step's choice is sampling.sample, whose every intermediate is
kept (``gen.{t}.sample.*``). Last, the whole sequence is run again without a cache
(``gen.check.*``): the largest |cached − full| over the logits is 0 up to round-off.

A step is computed on a tape of its own with the walk's names (so engine/layers' functions
build it unchanged: the parameters are named as in the walk), then grafted onto the walk's
tape with the prefix; nothing is computed twice.
"""

from __future__ import annotations

import numpy as np

from ...engine.formula import sub
from ...engine.layers import (
    attend_heads,
    feed_forward,
    norm_step,
    own_query_key_value,
    share_keys_values,
    sublayer,
)
from ...engine.ops import OPS
from ...engine.tape import Step, Tape
from ...errors import HandformerError
from ...text import END
from .model import forward, generator
from .sampling import Sampled, check_options, sample


def check(options: dict, prompt_tokens: int, max_len: int) -> None:
    """Refuse a generation that makes no sense, before any work: --tgt (the prompt is the whole
    text), --backward, sampling switches without --generate, more tokens than max_len leaves."""
    n = options.get("generate")
    switches = [f for f, k in (("--temperature", "temperature"), ("--top-k", "top_k"),
                               ("--top-p", "top_p")) if options.get(k) is not None]
    if n is None:
        if switches:
            raise HandformerError(f"{switches[0]} chooses how --generate picks each token: "
                                  f"add --generate N")
        return
    if options.get("tgt") is not None:
        raise HandformerError("with --generate the walk's text is the prompt (--src) alone and "
                              "the model writes its continuation: drop --tgt")
    if options.get("backward"):
        raise HandformerError("--generate walks the tokens the model writes, which have no "
                              "target to learn from: drop --backward (or --generate)")
    check_options(options.get("temperature") or 0.0, options.get("top_k"), options.get("top_p"))
    room = max_len - prompt_tokens
    if not 1 <= n <= room:
        raise HandformerError(f"--generate {n}: the prompt is {prompt_tokens} tokens with "
                              f"<start> and the model reads at most {max_len} (its max_len), "
                              f"so give 1 to {room}")


class Cache:
    """Per layer the keys (after RoPE) and values of every position so far: kv_heads × t × d."""

    def __init__(self, tape: Tape, cfg):
        keys = "k_rot" if cfg.pos == "rope" else "k"
        self.k = [np.asarray(tape[f"decoder.{i}.self_attn.{keys}"]) for i in range(cfg.layers)]
        self.v = [np.asarray(tape[f"decoder.{i}.self_attn.v"]) for i in range(cfg.layers)]

    @property
    def length(self) -> int:
        return self.k[0].shape[-2]


def generate_on_tape(tape: Tape, model, n: int, temperature: float = 0.0,
                     top_k: int | None = None, top_p: float | None = None,
                     seed: int = 0) -> None:
    """N tokens after the walk's prompt (``tape`` holds its forward pass), each step's numbers
    under ``gen.{t}.``, then the check against a pass without a cache (``gen.check.*``); what
    the panels read besides goes into ``tape.meta["generate"]``."""
    cfg, vocab = model.config, model.vocab
    rng, cache = np.random.default_rng(seed), Cache(tape, cfg)
    logits, rows, told, tokens = tape["generator.logits"][-1], [], [], []
    for t in range(n):
        fed = None
        if t > 0:
            fed, position = tokens[-1], cache.length
            step_tape = cached_step(model, cache, fed, position)
            graft(tape, step_tape, f"gen.{t}.")
            logits = step_tape["generator.logits"][-1]
            rows.append(logits)
        choice = sample(logits, temperature, top_k, top_p, rng)
        record_choice(tape, f"gen.{t}.sample", choice)
        told.append(_told(choice, fed, cache.length))
        tokens.append(choice.token)
        if choice.token == end_id(vocab):
            break
    ids = [int(i) for i in tape.meta["tgt"]["ids"]]
    diff = compare_with_full(tape, model, ids + tokens[:-1], rows)
    tape.meta["generate"] = {
        "n": n, "temperature": temperature, "top_k": top_k, "top_p": top_p, "seed": seed,
        "prompt_ids": ids, "ids": tokens, "tokens": vocab.decode(tokens),
        "ended": tokens[-1] == end_id(vocab), "steps": told, "max_abs_diff": diff,
        "kv_heads": cfg.kv_heads, "heads": cfg.heads}


def end_id(vocab) -> int:
    """The token that ends a text: <end>, or a pretrained vocabulary's own (its ``end_id``)."""
    own = getattr(vocab, "end_id", None)
    return vocab.id(END) if own is None else int(own)


def _told(choice: Sampled, fed: int | None, position: int) -> dict:
    return {"token": choice.token, "rank": choice.rank, "kept_k": choice.kept_k,
            "kept": choice.kept, "u": choice.u, "fed": fed,
            "position": None if fed is None else position - 1}


def cached_step(model, cache: Cache, token: int, position: int) -> Tape:
    """One token at ``position`` through the model, reading and growing ``cache``: a tape of
    its own, with the walk's step names."""
    cfg, step_tape = model.config, Tape(model.params)
    x = embed_at(step_tape, cfg, step_tape.constant("ids", np.asarray([token])), position)
    for i in range(cfg.layers):
        p = f"decoder.{i}"
        x = sublayer(step_tape, cfg, p, "ln1", "self_attn", x, lambda h, i=i: cached_attention(
            step_tape, cfg, f"decoder.{i}.self_attn", h, cache, i, position))
        x = sublayer(step_tape, cfg, p, "ln2", "ffn", x,
                     lambda h, p=p: feed_forward(step_tape, cfg, f"{p}.ffn", h))
    if cfg.final_norm:
        x = norm_step(step_tape, cfg, "decoder.norm", x, symbols={"out": "Y"})
    generator(step_tape, cfg, x)
    return step_tape


def embed_at(tape: Tape, cfg, ids: str, position: int) -> str:
    """The new token's row of E, plus (sinusoidal positions) row ``position`` of PE; with RoPE
    the position turns q and k inside attention instead."""
    if cfg.pos == "rope":
        return tape.run("embed.out", "embed", [ids, "embed.weight"], symbols={"out": "x"})
    x = tape.run("embed.tok", "embed", [ids, "embed.weight"], symbols={"out": sub("x", "tok")})
    table, _ = OPS["positional"].forward(n=position + 1, d=cfg.d_model, dtype=tape[x].dtype)
    pe = tape.constant("embed.pos", table[position:position + 1], symbols={"out": "PE"})
    return tape.run("embed.out", "add", [x, pe],
                    symbols={"out": "x", "a": sub("x", "tok"), "b": sub("PE", str(position))})


def cached_attention(tape: Tape, cfg, p: str, x: str, cache: Cache, layer: int,
                     position: int) -> str:
    """The new row's q, k, v (turned at ``position`` with RoPE), k and v appended to the
    layer's cache (``{p}.k_cache``, ``.v_cache``: kv_heads heads), shared by the groups of
    query heads with GQA, then attention of the one query over every cached key."""
    q, k, v = own_query_key_value(tape, cfg, p, x, x, "X", cfg.heads, start=position)
    grown = []
    for which, new, past in (("k", k, cache.k), ("v", v, cache.v)):
        old = tape.constant(f"{p}.{which}_past", past[layer])
        big = which.upper()
        grown.append(tape.run(f"{p}.{which}_cache", "append_rows", [old, new],
                              symbols={"out": big, "past": sub(big, "cache"), "new": which}))
    cache.k[layer], cache.v[layer] = tape[grown[0]], tape[grown[1]]
    k_all, v_all = share_keys_values(tape, cfg, p, *grown, cfg.heads)
    return attend_heads(tape, cfg, p, q, k_all, v_all, cfg.heads, None)


def graft(tape: Tape, step_tape: Tape, prefix: str) -> None:
    """Every step of ``step_tape`` onto ``tape`` under ``prefix`` (inputs that are its steps
    renamed alike; parameters keep their names). No reverse pass runs over them, so what the
    reverse pass would keep (args, caches) is dropped."""
    own = step_tape.index
    for s in step_tape.steps:
        inputs = tuple(prefix + i if i in own else i for i in s.inputs)
        tape._append(Step(prefix + s.name, s.op, inputs, s.value, s.attrs, s.symbols, s.extras,
                          view=s.view))


def record_choice(tape: Tape, p: str, choice: Sampled) -> None:
    """The sampling's intermediates as values on the tape (computed by sampling.sample)."""
    for name, value in (("scaled", choice.scaled), ("p", choice.p), ("order", choice.order),
                        ("sorted", choice.sorted_p), ("cumulative", choice.cumulative),
                        ("renormalised", choice.q),
                        ("renormalised_cumulative", choice.q_cumulative)):
        tape.constant(f"{p}.{name}", value)


def compare_with_full(tape: Tape, model, ids: list[int], rows: list[np.ndarray]) -> float:
    """The whole sequence through the model again, no cache: its logits (``gen.check.full``),
    the cached ones (the prompt pass's rows, then one row per step, ``gen.check.cached``) and
    |cached − full| (``gen.check.diff``); returns the largest."""
    full_tape = Tape(model.params, record=False)
    forward(full_tape, model.config, ids)
    full = full_tape["generator.logits"]
    cached = np.vstack([tape["generator.logits"], *[r[None, :] for r in rows]])
    diff = np.abs(cached - full)
    for name, value in (("cached", cached), ("full", full), ("diff", diff)):
        tape.constant(f"gen.check.{name}", value)
    return float(diff.max())


GENERATION = ("generate", "temperature", "top_k", "top_p")  # the walk's options read here


def prompt_and_rest(model, options: dict) -> tuple[str | None, str | None]:
    """The walk's text: with --generate the prompt (--src, the tutorial's by default) alone,
    after the refusals of ``check``; else --src and --tgt as given."""
    src, tgt = options.get("src"), options.get("tgt")
    if all(options.get(k) is None for k in GENERATION):
        return src, tgt
    from ...text import TUTORIAL_SRC

    prompt = TUTORIAL_SRC if src is None else src
    check(options, 1 + len(model.vocab.encode(prompt, "prompt")), model.config.max_len)
    return prompt, ""


def generate_after_walk(tape: Tape, model, options: dict) -> None:
    """`walk --generate N`: the generation after the prompt's pass, with the walk's sampling
    switches (greedy by default) and --seed (0 by default; without a checkpoint it seeded the
    weights too, as `generate --train-steps 0 --seed S` does)."""
    if options.get("generate") is None:
        return
    seed = options.get("seed")
    generate_on_tape(tape, model, options["generate"], options.get("temperature") or 0.0,
                     options.get("top_k"), options.get("top_p"), 0 if seed is None else seed)
