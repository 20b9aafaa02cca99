"""`walk --pretrained smollm2-135m`: a real Llama-style model read from its GGUF file
(gguf_model.py, gguf_tokenizer.py), walked through the gpt family's own layers (model.py).

The text is the prompt alone, read as the model's tokenizer cuts it (no <start>: SmolLM2's file
adds none); there is no target, so no loss: the walk ends with the next-token distribution of
the last position. After each block the walk also records a "logit lens": the residual
stream's norm and the top next-token guess were the model to stop there (the final RMSNorm and
the tied unembedding applied to that block's output), so the elided blocks keep a summary.
"""

from __future__ import annotations

import numpy as np

from ...engine.tape import Tape
from ...errors import HandformerError, PretrainedError
from ...limits import check_walk
from .model import forward

KNOWN = ("smollm2-135m",)
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
    from .gguf_model import load
    from .gguf_tokenizer import GgufVocab
    from .run import Model

    refuse_unknown(options["pretrained"])
    taken = {"pretrained", "dtype", "generate", "temperature", "top_k", "top_p", "seed"}
    given = sorted(k for k, v in options.items()
                   if k not in taken and v is not None and v is not False)
    if given:
        raise HandformerError(f"--pretrained {options['pretrained']} brings its own sizes, "
                              f"weights and vocabulary; drop --{given[0].replace('_', '-')}")
    loaded = load(dtype=options.get("dtype") or "float32")
    vocab = GgufVocab.from_fields(loaded.fields)
    info = {"name": options["pretrained"].lower(), "file": loaded.path.name,
            "kinds": loaded.kinds, "dtype": options.get("dtype") or "float32",
            "blocks": _blocks_by_hand(loaded), "chat_template":
            loaded.fields.get("tokenizer.chat_template"),
            "eos": loaded.fields.get("tokenizer.ggml.eos_token_id")}
    return Model(loaded.config, [], vocab, loaded.params, pretrained=info)


def _blocks_by_hand(loaded) -> dict:
    """One block of each quantization, by hand (quants.block_by_hand), for the page."""
    from .quants import block_by_hand

    out = {}
    for name, kind in loaded.kinds.items():
        if kind != "F32" and kind not in out:
            out[kind] = block_by_hand(loaded.first_blocks[name], kind) | {"tensor": name}
    return out


def walk(model, options: dict) -> Tape:
    """The prompt's every step on a tape, then the logit lens after each block."""
    if options.get("tgt") is not None or options.get("backward"):
        raise HandformerError("--pretrained smollm2-135m walks a prompt (--src) to its next "
                              "token: drop --tgt and --backward (gradients of its 135 million "
                              "weights are not computed by hand)")
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
                                 if k not in ("kinds", "chat_template")},
                     gguf_bpe=model.vocab.merges_fired(text))
    forward(tape, cfg, ids)
    tape.meta["lens"] = logit_lens(tape, cfg, model.vocab)
    return tape


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
