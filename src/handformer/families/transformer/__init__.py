"""The encoder-decoder Transformer of the paper and the tutorial, as a family.

model.py: parameters and the forward pass; run.py: options → model → tape → gradients (what the
pipeline calls); decode.py: greedy and beam search; errata.py: the tutorial's mistakes, told
where they happen; layers.py, explain.py: the story of the stacks and of a translation;
pairs.py: what the shared training loop, BLEU and `evaluate` call (loss.py, greedy.py,
torch_engine.py); shards.py: `walk --shards`; weights.py: torch.nn.Transformer's names;
torch_ref.py, torch_mirror.py, verify.py, verify_command.py: `handformer verify`.
"""

from __future__ import annotations

import functools

from ..registry import Family, register
from . import errata, model, pairs, run
from .config import PRESETS, Config


def story(tape) -> list:
    """Dataset → vocabulary → encoding → embedding → encoder → decoder → prediction, then, after
    a backward pass, the loss, every gradient and the update."""
    from ...narrate import beside, intro, overview, predict
    from . import layers

    told = [overview.overview, intro.dataset, intro.vocabulary, intro.encoding,
            functools.partial(intro.embedding, p="src_embed", number="4"),
            functools.partial(intro.positional, p="src_embed", number="5"),
            functools.partial(intro.model_input, p="src_embed", number="6"),
            layers.encoder, layers.decoder, predict.prediction, beside.beside]
    after = []
    if tape.grads:  # only then are the backward narration's modules worth importing
        from ...narrate.backward import backward, updates
        from ...narrate.shards import shards

        after = [predict.loss, backward, tied_gradient, shards, updates]
    return told + after + [overview.recap]


def tied_gradient(ctx) -> None:
    """With --tie-embeddings: ∂L/∂E from its three uses (the source and target lookups, Eᵀ)."""
    from ...narrate.tied import Lookup
    from ...narrate.tied import tied_gradient as tell

    tell(ctx, [Lookup("src_embed.tok", "src.ids", ctx.tokens("src"), "X_{tok}", "tied.what.src"),
               Lookup("tgt_embed.tok", "tgt.ids", ctx.tokens("tgt"), "Y_{tok}", "tied.what.tgt")])


def verify_report(options: dict, tol: float) -> bool:
    """`handformer verify` (verify_command.py, imported when it runs)."""
    from .verify_command import report

    return report(options, tol)


def translate(params, cfg, vocab, src: str, *args, **options):
    """Greedy or beam-search decoding of ``src`` (decode.translate; imported when used)."""
    from .decode import translate as decode

    return decode(params, cfg, vocab, src, *args, **options)


def tell_translation(result, vocab, lang: str) -> list:
    """The story of one translation (`translate --explain`): every decoding step."""
    from .explain import build

    return build(result, vocab, lang)


def save_weights(path: str, s) -> None:
    """`walk --save-weights`: torch.nn.Transformer's names (weights.py), each side's
    vocabulary in the metadata."""
    from .weights import save_weights as write

    source, target = s.vocab.source, s.vocab.target
    write(path, s.params, s.config, source.tokens, source.specials,
          None if target is source else target)


def export_names(tensors: dict, s) -> dict:
    """torch.nn.Transformer's names and layouts (weights.py); a tied table's one array
    under its three names, as the tied torch model lists its one Parameter."""
    from .weights import to_state_dict

    return to_state_dict(tensors, s.config)


# The terminal walk's three closing commands, each (what it shows, the command); after a
# backward pass a trained copy beside the weights comes first instead of the gradients.
NEXT_STEPS = (("recap.next.backward", "recap.next.backward.run"),
              ("recap.next.html", "recap.next.html.run"),
              ("recap.next.train", "recap.next.train.run"))
AFTER_BACKWARD = ("recap.next.beside", "recap.next.beside.run")

FAMILY = register(Family("transformer", Config, model.param_shapes, model.forward, story,
                         prepare=run.prepare, walk=run.walk, backward=run.backward,
                         notes=run.notes, decode=translate,
                         explain=tell_translation, errata=errata.records,
                         configure=run.configure, beside_trained=True,
                         follows_tutorial=True, save_weights=save_weights,
                         export_names=export_names, next_token_loss=True, pairs=pairs,
                         verify_report=verify_report,
                         next_steps={"walk": NEXT_STEPS,
                                     "backward": (AFTER_BACKWARD, *NEXT_STEPS[1:])},
                         presets=PRESETS))
