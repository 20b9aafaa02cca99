"""The Done-when test of SmolLM2's walk: transformers' LlamaForCausalLM, float64, built from
the same dequantized weights (Q/K rows permuted from GGUF's adjacent pairs to rotate_half's
order by llama.py), gives every block's hidden state and the logits of the walk's tape to
1e-9 relative.

transformers computes two things in float32 inside a float64 Llama (LlamaRMSNorm's cast and
the rotary table); test_llama_weights.float64_everywhere replaces exactly those two forwards
with the same formulas in float64 (see that module), the rest is transformers' own code.
"""

from __future__ import annotations

import numpy as np
import pytest

from handformer.families.gpt import pretrained
from handformer.families.gpt.llama import to_state_dict
from handformer.families.gpt.llama_folder import hf_fields

from .smollm2_file import gguf_path
from .test_llama_weights import float64_everywhere

# The 98 MB model file is read (seconds) by every module here: make test, not make check.
pytestmark = pytest.mark.slow

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

TOL = 1e-9
TEXT = "when you play the game of thrones you"


@pytest.fixture(scope="module")
def walked():
    gguf_path()
    model = pretrained.prepare({"pretrained": "smollm2-135m", "dtype": "float64"})
    return model, pretrained.walk(model, {"src": TEXT})


@pytest.fixture(scope="module")
def theirs(walked):
    model, _ = walked
    cfg = model.config
    config = transformers.LlamaConfig(**hf_fields(cfg), vocab_size=len(model.vocab),
                                      hidden_act="silu", attention_bias=False, mlp_bias=False)
    with torch.device("meta"):
        hf = transformers.LlamaForCausalLM(config)
    state = {k: torch.from_numpy(v) for k, v in to_state_dict(model.params, cfg).items()}
    missing, unexpected = hf.load_state_dict(state, strict=False, assign=True)
    assert (missing, unexpected) == (["lm_head.weight"], [])  # tied: the embedding's, below
    hf.tie_weights()
    hf = float64_everywhere(hf.to(torch.float64).eval())
    ids = torch.tensor([model.vocab.encode(TEXT)])
    with torch.no_grad():
        out = hf(ids, output_hidden_states=True)
    out.hf = hf  # the model itself, for the generation test
    return out


def relative(ours, reference) -> float:
    ours, reference = np.asarray(ours), reference.numpy()[0]
    return float(np.max(np.abs(ours - reference)) / np.max(np.abs(reference)))


def test_every_block_as_transformers_computes_it(walked, theirs):
    _, tape = walked
    hidden = theirs.hidden_states
    assert len(hidden) == 31
    assert relative(tape["embed.out"], hidden[0]) == 0.0
    for i in range(29):
        assert relative(tape[f"decoder.{i}.out"], hidden[i + 1]) <= TOL, i
    # transformers' last hidden state is the final norm's output.
    assert relative(tape["decoder.norm.out"], hidden[30]) <= TOL


def test_logits_and_the_next_token(walked, theirs):
    model, tape = walked
    assert relative(tape["generator.logits"], theirs.logits) <= TOL
    p = tape["generator.probs"][-1]
    assert model.vocab.tokens[int(np.argmax(p))] == "'re"
    assert model.vocab.tokens[int(np.argmax(theirs.logits[0, -1].numpy()))] == "'re"


def test_the_logit_lens_ends_at_the_walks_own_guess(walked):
    model, tape = walked
    lens = tape.meta["lens"]
    assert [b["block"] for b in lens] == list(range(30))
    last = tape["decoder.29.out"][-1]
    assert lens[-1]["norm"] == pytest.approx(float(np.sqrt(np.sum(last ** 2))), rel=1e-12)
    assert lens[-1]["top"][0][0] == "'re"
    assert lens[-1]["top"][0][1] == pytest.approx(float(tape["generator.probs"][-1].max()),
                                                  rel=1e-9)


def test_greedy_generation_with_the_cache_writes_what_transformers_writes(walked, theirs):
    model, _ = walked
    prompt = "The capital of France is"
    tape = pretrained.walk(model, {"src": prompt, "generate": 8})
    ours = tape.meta["generate"]["ids"]
    assert tape.meta["generate"]["max_abs_diff"] < 1e-9  # cached against recomputed, float64
    hf = theirs.hf
    ids = torch.tensor([model.vocab.encode(prompt)])
    with torch.no_grad():
        out = hf.generate(ids, max_new_tokens=8, do_sample=False, use_cache=True,
                          pad_token_id=model.vocab.end_id)
    assert ours == out[0, ids.shape[1]:].tolist()
