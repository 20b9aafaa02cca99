"""The tape's step names for the tutorial preset, in order: a golden list written by hand.

Tutorial preset: no embedding scale, one encoder head, two decoder heads, single-linear
FFN (its ReLU output is ``ffn.out``), no final norm, no padding (so no encoder ``masked`` step).
Per-head slices (``head.{i}.*``) follow each attention's ``z``.
"""

from handformer.families.transformer.config import preset
from handformer.families.transformer.run import run_forward, setup
from handformer.text import TUTORIAL_SRC, TUTORIAL_TGT

GOLDEN = """
src.ids
src_embed.tok src_embed.pos src_embed.out
encoder.0.self_attn.q encoder.0.self_attn.k encoder.0.self_attn.v encoder.0.self_attn.scores
encoder.0.self_attn.pattern encoder.0.self_attn.z
encoder.0.self_attn.head.0.q encoder.0.self_attn.head.0.k encoder.0.self_attn.head.0.v
encoder.0.self_attn.head.0.scores encoder.0.self_attn.head.0.pattern encoder.0.self_attn.head.0.z
encoder.0.self_attn.concat encoder.0.self_attn.out
encoder.0.ln1.resid encoder.0.ln1.out
encoder.0.ffn.pre encoder.0.ffn.out
encoder.0.ln2.resid encoder.0.ln2.out
encoder.0.out
tgt.ids
tgt_embed.tok tgt_embed.pos tgt_embed.out
decoder.0.self_attn.q decoder.0.self_attn.k decoder.0.self_attn.v decoder.0.self_attn.scores
decoder.0.self_attn.masked decoder.0.self_attn.pattern decoder.0.self_attn.z
decoder.0.self_attn.head.0.q decoder.0.self_attn.head.0.k decoder.0.self_attn.head.0.v
decoder.0.self_attn.head.0.scores decoder.0.self_attn.head.0.masked
decoder.0.self_attn.head.0.pattern decoder.0.self_attn.head.0.z
decoder.0.self_attn.head.1.q decoder.0.self_attn.head.1.k decoder.0.self_attn.head.1.v
decoder.0.self_attn.head.1.scores decoder.0.self_attn.head.1.masked
decoder.0.self_attn.head.1.pattern decoder.0.self_attn.head.1.z
decoder.0.self_attn.concat decoder.0.self_attn.out
decoder.0.ln1.resid decoder.0.ln1.out
decoder.0.cross_attn.q decoder.0.cross_attn.k decoder.0.cross_attn.v decoder.0.cross_attn.scores
decoder.0.cross_attn.pattern decoder.0.cross_attn.z
decoder.0.cross_attn.head.0.q decoder.0.cross_attn.head.0.k decoder.0.cross_attn.head.0.v
decoder.0.cross_attn.head.0.scores decoder.0.cross_attn.head.0.pattern
decoder.0.cross_attn.head.0.z
decoder.0.cross_attn.head.1.q decoder.0.cross_attn.head.1.k decoder.0.cross_attn.head.1.v
decoder.0.cross_attn.head.1.scores decoder.0.cross_attn.head.1.pattern
decoder.0.cross_attn.head.1.z
decoder.0.cross_attn.concat decoder.0.cross_attn.out
decoder.0.ln2.resid decoder.0.ln2.out
decoder.0.ffn.pre decoder.0.ffn.out
decoder.0.ln3.resid decoder.0.ln3.out
decoder.0.out
generator.logits generator.probs
loss
""".split()


def tutorial_tape():
    return run_forward(setup(preset("tutorial")), TUTORIAL_SRC, TUTORIAL_TGT)


def test_tutorial_step_names_in_order():
    assert tutorial_tape().names() == GOLDEN


def test_tutorial_step_shapes_follow_the_tutorial():
    tape = tutorial_tape()
    shapes = {s.name: s.shape for s in tape.steps}
    assert shapes["src_embed.out"] == (7, 6)            # 7 source words, d_model 6
    assert shapes["encoder.0.self_attn.q"] == (1, 7, 4)  # 1 head, d_k 4
    assert shapes["decoder.0.self_attn.scores"] == (2, 6, 6)  # 2 heads, <start> + 5 words
    assert shapes["decoder.0.cross_attn.pattern"] == (2, 6, 7)
    assert shapes["decoder.0.self_attn.head.1.z"] == (6, 4)
    assert shapes["generator.probs"] == (6, 25)         # 23 words + <start>, <end>
    assert [s.name for s in tape.steps if s.view] == [n for n in GOLDEN if ".head." in n]


def test_names_of_a_deeper_padded_model():
    """Layers are numbered from 0, final norms appear when on, masked steps where masks are."""
    import numpy as np

    from handformer.engine.tape import Tape
    from handformer.families.transformer.model import forward, init_params

    cfg = preset("small", layers=3)
    tape = Tape(init_params(cfg, 25))
    forward(tape, cfg, np.array([[1, 2, 3], [4, 5, 0]]), np.array([[23, 1], [23, 2]]),
            src_pad=np.array([[False] * 3, [False, False, True]]))
    names = tape.names()
    for expected in ("src_embed.scaled", "encoder.2.out", "encoder.norm.out",
                     "encoder.0.self_attn.masked", "decoder.2.cross_attn.masked",
                     "decoder.2.ffn.act", "decoder.norm.out", "generator.logits"):
        assert expected in names
    assert "encoder.3.out" not in names
    assert names.index("encoder.2.out") < names.index("encoder.norm.out") < names.index("tgt.ids")
