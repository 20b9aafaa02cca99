"""`walk --pretrained smollm2-135m`: a real Llama-style model read from its GGUF file
(gguf_model.py, gguf_tokenizer.py), walked through the gpt family's own layers (model.py).

The text is the prompt alone, read as the model's tokenizer cuts it (no <start>: SmolLM2's file
adds none); there is no target, so no loss: the walk ends with the next-token distribution of
the last position. After each block the walk also records a "logit lens": the residual
stream's norm and the top next-token guess were the model to stop there (the final RMSNorm and
the tied unembedding applied to that block's output), so the elided blocks keep a summary.
"""

from __future__ import annotations

import copy
import functools
import importlib.util

import numpy as np

from ...engine.tape import Tape
from ...errors import HandformerError, PretrainedError
from ...limits import check_walk
from .config import GptConfig
from .model import forward, param_shapes

KNOWN = ("smollm2-135m",)
# Its sizes as the file gives them (tests/families/gpt/test_smollm2_walk.py holds them equal),
# for refusing --backward before the file is read.
SIZES = GptConfig(preset="smollm2-135m", d_model=576, heads=9, kv_heads=3, d_ff=1536, layers=30,
                  pos="rope", rope_pairs="adjacent", norm_kind="rms", ffn="swiglu")
VOCAB = 49152
DEFAULT_TEXT = "when you play the game of thrones you"
LENS_TOP = 3  # guesses kept per block


def knows(name: str) -> bool:
    return str(name).lower() in KNOWN


def refuse_unknown(name: str) -> None:
    if not knows(name):
        raise PretrainedError(f"{name!r} is not a model the gpt family loads (known: "
                              f"{', '.join(KNOWN)})")


def prepare(options: dict):
    """The model of ``options["pretrained"]``, its weights in ``options["dtype"]`` (float32
    by default; float64 for checking)."""
    from .gguf_tokenizer import GgufVocab
    from .run import Model

    refuse_unknown(options["pretrained"])
    refuse_backward(options)
    taken = {"pretrained", "dtype", "blocks_shown", "generate", "temperature", "top_k",
             "top_p", "seed"}
    given = sorted(k for k, v in options.items()
                   if k not in taken and v is not None and v is not False)
    if given:
        raise HandformerError(f"--pretrained {options['pretrained']} brings its own sizes, "
                              f"weights and vocabulary; drop --{given[0].replace('_', '-')}")
    from .gguf_model import locate

    loaded = _loaded(locate(), options.get("dtype") or "float32")
    vocab = GgufVocab.from_fields(loaded.fields)
    info = {"name": options["pretrained"].lower(), "file": loaded.path.name,
            "kinds": loaded.kinds, "dtype": options.get("dtype") or "float32",
            "blocks": _blocks_by_hand(loaded), "chat_template":
            loaded.fields.get("tokenizer.chat_template"),
            "eos": loaded.fields.get("tokenizer.ggml.eos_token_id")}
    return Model(loaded.config, [], vocab, loaded.params, pretrained=info)


@functools.lru_cache(maxsize=2)
def _loaded(path, dtype: str):
    """The file read and dequantized once per process and dtype (the web app and the tests
    walk it again and again; a walk never changes the weights). The file is found first, on
    every walk, so a missing package is told even after a load."""
    from .gguf_model import load

    return load(path, dtype=dtype)


def _blocks_by_hand(loaded) -> dict:
    """One block of each quantization, by hand (quants.block_by_hand), for the page."""
    from .quants import block_by_hand

    out = {}
    for name, kind in loaded.kinds.items():
        if kind != "F32" and kind not in out:
            out[kind] = block_by_hand(loaded.first_blocks[name], kind) | {"tensor": name}
    return out


def refuse_backward(options: dict) -> None:
    """--backward: every gradient would be one more number per weight on the tape, over the
    limit of numbers one tape keeps; refused before the file is read."""
    from ...limits import limit
    from .gguf_model import NAME

    if not options.get("backward"):
        return
    count = sum(int(np.prod(shape)) for shape, _ in param_shapes(SIZES, VOCAB).values())
    raise HandformerError(f"--backward: {NAME}'s gradients alone are {count:,} numbers, over "
                          f"the {limit('tape_numbers'):,} one tape may keep (the limit "
                          f"tape_numbers), and no backward pass by hand is offered for it; "
                          f"drop --backward")


def walk(model, options: dict) -> Tape:
    """The prompt's every step on a tape, then the logit lens after each block."""
    refuse_backward(options)
    if options.get("tgt") is not None:
        raise HandformerError("--pretrained smollm2-135m walks a prompt (--src) to its next "
                              "token: drop --tgt")
    text = options.get("src")
    text = DEFAULT_TEXT if text is None else text
    ids = model.vocab.encode(text, "text")
    cfg = model.config
    if len(ids) > cfg.max_len:
        raise HandformerError(f"the text is {len(ids)} tokens, more than the model's "
                              f"{cfg.max_len}")
    check_walk(cfg, 0, len(ids), len(model.vocab))
    tape = Tape(model.params)
    tape.meta.update(family="gpt", config=cfg.to_dict(), dataset=[], vocab=model.vocab.tokens,
                     tokenizer=model.vocab.tokenizer, prompt={"tokens": model.vocab.decode(ids)},
                     tgt={"tokens": model.vocab.decode(ids), "ids": ids},
                     pretrained={k: v for k, v in model.pretrained.items()
                                 if k not in ("kinds", "chat_template")}
                     | {"text": text, "merges": len(model.vocab.merges)},
                     gguf_bpe=model.vocab.merges_fired(text))
    shown = blocks_shown(options.get("blocks_shown"), cfg.layers)
    forward(tape, cfg, ids)
    tape.meta["lens"] = logit_lens(tape, cfg, model.vocab)
    generate_after(tape, model, options, len(ids))
    show_blocks(tape, shown)
    return tape


def show_blocks(tape: Tape, shown: list[int]) -> None:
    """Keep blocks ``shown`` in full and the others' summaries (the meta says which)."""
    layers = int(tape.meta["config"]["layers"])
    tape.meta["blocks_shown"] = shown
    tape.meta["elided"] = f"{tape.meta['pretrained']['name']}: blocks " \
                          f"{', '.join(map(str, shown))} of {layers} in full"
    elide(tape, shown)


def generate_after(tape: Tape, model, options: dict, n: int) -> None:
    """`--generate N` after the prompt's pass: generation.py's cached steps and sampling."""
    from .generation import check, generate_on_tape

    if options.get("generate") is None:
        check(options, n, model.config.max_len)  # sampling switches without --generate
        return
    check(options, n, model.config.max_len)
    seed = options.get("seed")
    generate_on_tape(tape, model, options["generate"], options.get("temperature") or 0.0,
                     options.get("top_k"), options.get("top_p"), 0 if seed is None else seed)
    tape.meta["generate"]["dtype"] = model.pretrained["dtype"]  # the check's round-off


def blocks_shown(given: str | None, layers: int) -> list[int]:
    """--blocks-shown "0,29" → [0, 29] (block 0 alone by default), each checked."""
    if given is None:
        return [0]
    try:
        shown = sorted({int(part) for part in str(given).split(",") if part.strip()})
    except ValueError:
        raise HandformerError(f"--blocks-shown takes block numbers separated by commas, e.g. "
                              f"0,{layers - 1}; got {given!r}") from None
    wrong = [b for b in shown if not 0 <= b < layers]
    if wrong or not shown:
        raise HandformerError(f"--blocks-shown: the blocks are numbered 0 to {layers - 1}; "
                              f"got {given!r}")
    return shown


def elide(tape: Tape, shown: list[int]) -> None:
    """Keep the steps of the blocks shown in full; of the others only each block's output
    (its hidden state, a row per token). The tied unembedding Eᵀ (49,152 × 576, a view of the
    table) is not kept as a step: the logits name the table they read."""
    kept_blocks = {f"decoder.{i}." for i in shown}

    def kept(name: str) -> bool:
        if name.startswith("gen.") and not name.startswith("gen.check."):
            return name.split(".", 2)[2].startswith(("sample", "generator.logits",
                                                       "generator.probs"))
        if name == "generator.w":
            return False
        if not name.startswith("decoder.") or name.startswith("decoder.norm"):
            return True
        return name.endswith(".out") and name.count(".") == 2 or \
            any(name.startswith(p) for p in kept_blocks)

    tape.keep(kept)


def logit_lens(tape: Tape, cfg, vocab) -> list[dict]:
    """Per block: the last position's residual-stream norm ‖x‖ and its top guesses under
    softmax(RMSNorm(x) Eᵀ) (the final norm's γ and the tied table, applied early)."""
    from ...engine.ops.modern import rms_norm_forward

    table, gamma = tape.value("embed.weight"), tape.value("decoder.norm.gamma")
    out = []
    for i in range(cfg.layers):
        x = np.asarray(tape.value(f"decoder.{i}.out"), dtype=np.float64)[-1]
        z = table @ rms_norm_forward(x[None], gamma, eps=cfg.ln_eps)[0][0]
        p = np.exp(z - z.max())
        p /= p.sum()
        top = np.argsort(-p)[:LENS_TOP]
        out.append({"block": i, "norm": float(np.linalg.norm(x)),
                    "top": [[vocab.tokens[int(t)], float(p[t])] for t in top]})
    return out


# --- the web app's bindings (registry: Family.pretrained_app) ------------------------------


def about(name: str) -> dict:
    """What the web app says of ``name`` before loading it: whether its file is here (else the
    one line naming the pip command that adds it), its example prompt, its blocks."""
    from .gguf_model import INSTALL, NAME, locate

    refuse_unknown(name)
    try:
        locate()
        missing = None if importlib.util.find_spec("gguf") else \
            f"{NAME} is read with the gguf package: {INSTALL}"
    except PretrainedError as err:
        missing = str(err)
    return {"missing": missing, "text": DEFAULT_TEXT, "layers": SIZES.layers}


def prompt_tokens(model, text: str) -> int:
    """The prompt's length in the model's own tokens."""
    return len(model.vocab.encode(text, "text"))


def view(tape: Tape, shown: list[int]) -> Tape:
    """A walk of every block in full, as one showing blocks ``shown`` (the others elided): a
    copy sharing the arrays, so the whole walk stays for the next view."""
    out = copy.copy(tape)
    out.meta = dict(tape.meta)
    show_blocks(out, blocks_shown(",".join(map(str, shown)), int(tape.meta["config"]["layers"])))
    return out
