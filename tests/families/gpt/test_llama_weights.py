"""`walk --family gpt --save-weights` for the Llama recipe (rope, rms, swiglu): Hugging Face's
LlamaForCausalLM names in a folder that transformers loads, computing the walk's logits and
(with our loss) its gradients; `--weights` reads the folder (or one file) back byte-equal.

Hugging Face's Llama computes two things in float32 whatever the model's dtype: LlamaRMSNorm
casts its input to float32 (and back after normalizing), and LlamaRotaryEmbedding forms
inv_freq, m·θ_i, cos and sin in float32. Unmodified, the float64 model therefore agrees with
our float64 tape to about 1e-7 (measured 2.7e-7 on the llama preset): ``UNPATCHED_TOL``.
``float64_everywhere`` replaces exactly those two forwards with the same formulas in float64
(RMSNorm: x · rsqrt(mean(x²) + ε) · γ; rotary: inv_freq = 1/θ^(2i/d), cos and sin of
position · inv_freq, repeated for both halves), and then every logit agrees to ``TOL``. The
rest of the model (projections, rotate_half, repeat_kv, attention, SiLU, lm_head) is
transformers' own code, untouched.
"""

import json
import types

import numpy as np
import pytest
from safetensors import safe_open

from handformer.families.gpt.config import GptConfig
from handformer.families.gpt.llama import half_order
from handformer.families.gpt.llama_folder import load as load_folder
from handformer.families.gpt.run import prepare
from support.clirun import run_here

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

TOL, UNPATCHED_TOL = 1e-10, 1e-5
CASES = {
    "preset": ("--preset", "llama"),
    "adjacent": ("--preset", "llama", "--rope-pairs", "adjacent"),
    "adjacent-mqa-untied": ("--preset", "llama", "--rope-pairs", "adjacent", "--kv-heads", "1",
                            "--no-tie-embeddings", "--seed", "4"),
    "half-mha-untied-2-layers": ("--preset", "llama", "--kv-heads", "4", "--layers", "2",
                                 "--no-tie-embeddings", "--rope-base", "100"),
    "adjacent-wide-heads": ("--preset", "llama", "--heads", "2", "--kv-heads", "1",
                            "--rope-pairs", "adjacent", "--layers", "2", "--seed", "7"),
}


def walk_saving(tmp_path, options, target="hf"):
    done = run_here("walk", "--family", "gpt", *options, "--save-weights", target, "--backward",
                    "--save-grads", "g.safetensors", "--format", "json", "-o", "a.json",
                    cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))


def step(tape, name):
    return np.array(next(s for s in tape["steps"] if s["name"] == name)["value"])


def float64_everywhere(model):
    """The two float32 computations of transformers' Llama replaced by the same formulas in
    float64 (see the module's docstring); every other line of the model stays transformers'."""
    def rms_norm(self, x):
        return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.variance_epsilon))

    def rotary(self, x, position_ids):
        cfg = self.config
        dim = cfg.head_dim
        inv = 1.0 / cfg.rope_parameters["rope_theta"] ** (
            torch.arange(0, dim, 2, dtype=torch.float64) / dim)
        freqs = position_ids[..., None].to(torch.float64) * inv
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos() * self.attention_scaling, emb.sin() * self.attention_scaling

    for module in model.modules():
        if type(module).__name__ == "LlamaRMSNorm":
            module.forward = types.MethodType(rms_norm, module)
    model.model.rotary_emb.forward = types.MethodType(rotary, model.model.rotary_emb)
    return model


def hf_model(folder):
    model = transformers.LlamaForCausalLM.from_pretrained(str(folder), dtype=torch.float64)
    return model.eval()


@pytest.mark.parametrize("case", CASES)
def test_transformers_computes_the_walks_logits(tmp_path, case):
    tape = walk_saving(tmp_path, CASES[case])
    ids, ours = torch.tensor([tape["tgt"]["ids"]]), step(tape, "generator.logits")
    model = hf_model(tmp_path / "hf")
    assert model.model.embed_tokens.weight.dtype == torch.float64
    with torch.no_grad():
        unpatched = model(ids).logits[0].numpy()
        exact = float64_everywhere(model)(ids).logits[0].numpy()
    np.testing.assert_allclose(unpatched, ours, rtol=0, atol=UNPATCHED_TOL)
    np.testing.assert_allclose(exact, ours, rtol=0, atol=TOL)


@pytest.mark.parametrize("case", ["preset", "adjacent-mqa-untied"])
def test_transformers_gradients_are_the_saved_gradients(tmp_path, case):
    """Our loss (mean next-token cross-entropy, the last target <end>) on transformers' logits:
    autograd's gradients equal the walk's --save-grads under the same names and layouts (W_Q's
    and W_K's gradients reordered as their weights are)."""
    tape = walk_saving(tmp_path, CASES[case])
    model = float64_everywhere(hf_model(tmp_path / "hf"))
    logits = model(torch.tensor([tape["tgt"]["ids"]])).logits[0]
    loss = torch.nn.functional.cross_entropy(logits, torch.tensor(tape["target"]["ids"]))
    loss.backward()
    assert abs(loss.item() - float(step(tape, "loss"))) < TOL
    with safe_open(str(tmp_path / "g.safetensors"), "np") as f:
        saved = {name: f.get_tensor(name) for name in f.keys()}
    theirs = {name: p.grad.numpy() for name, p in model.named_parameters()}
    if model.config.tie_word_embeddings:
        theirs.pop("lm_head.weight", None)
    assert set(saved) == set(theirs)
    for name, grad in saved.items():
        np.testing.assert_allclose(grad, theirs[name], rtol=0, atol=TOL, err_msg=name)


@pytest.mark.parametrize("case", CASES)
def test_the_folder_reads_back_byte_equal(tmp_path, case):
    tape = walk_saving(tmp_path, CASES[case])
    cfg = GptConfig.from_dict(tape["config"])
    params, config, vocab = load_folder(tmp_path / "hf", None, None)
    assert config == cfg and vocab.tokens == tape["vocab"]
    fresh = prepare({"config": cfg}).params
    assert list(params) == list(fresh)
    for name, value in fresh.items():
        assert params[name].tobytes() == value.tobytes(), name
    again = run_here("walk", "--family", "gpt", "--weights", "hf", "--backward", "--format",
                     "json", "-o", "b.json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "b.json").read_bytes() == (tmp_path / "a.json").read_bytes()


def test_one_safetensors_file_holds_the_llama_names_and_reads_back(tmp_path):
    walk_saving(tmp_path, CASES["adjacent-mqa-untied"], target="w.safetensors")
    with safe_open(str(tmp_path / "w.safetensors"), "np") as f:
        names, meta = set(f.keys()), f.metadata()
    assert {"model.embed_tokens.weight", "lm_head.weight", "model.norm.weight",
            "model.layers.0.self_attn.q_proj.weight", "model.layers.0.mlp.gate_proj.weight",
            "model.layers.0.input_layernorm.weight"} <= names
    assert meta["family"] == "gpt"
    again = run_here("walk", "--family", "gpt", "--weights", "w.safetensors", "--backward",
                     "--format", "json", "-o", "b.json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "b.json").read_bytes() == (tmp_path / "a.json").read_bytes()


def test_adjacent_pairs_are_written_in_rotate_halfs_column_order(tmp_path):
    """Per head, W_Q's columns 0, 2, …, d_k − 2, then 1, 3, …, d_k − 1 (W_K's likewise per
    key/value head); W_V, W_O and the rest as they are."""
    tape = walk_saving(tmp_path, ("--preset", "llama", "--rope-pairs", "adjacent", "--d-model",
                                  "16", "--d-ff", "16"))
    cfg = GptConfig.from_dict(tape["config"])
    params = prepare({"config": cfg}).params
    with safe_open(str(tmp_path / "hf" / "model.safetensors"), "np") as f:
        q, k, v = (f.get_tensor(f"model.layers.0.self_attn.{x}_proj.weight") for x in "qkv")
    order = [h * 4 + c for h in range(4) for c in (0, 2, 1, 3)]  # d_k 4, four query heads
    assert list(half_order(cfg, cfg.heads)) == order
    np.testing.assert_array_equal(q, params["decoder.0.self_attn.w_q"][:, order].T)
    np.testing.assert_array_equal(k, params["decoder.0.self_attn.w_k"][:, order[:8]].T)
    np.testing.assert_array_equal(v, params["decoder.0.self_attn.w_v"].T)


def test_a_folder_transformers_saved_is_read_from_its_own_fields(tmp_path):
    """No handformer entry in config.json: the sizes from Hugging Face's fields, the pairs
    rotate_half's, the vocabulary the dataset's; the logits stay the walk's (adjacent pairs
    read as half pairs of the reordered columns: the same model)."""
    tape = walk_saving(tmp_path, CASES["adjacent"])
    hf_model(tmp_path / "hf").save_pretrained(str(tmp_path / "saved"))
    path = tmp_path / "saved" / "config.json"
    fields = json.loads(path.read_text(encoding="utf-8"))
    fields.pop("handformer")
    path.write_text(json.dumps(fields), encoding="utf-8")
    done = run_here("walk", "--family", "gpt", "--weights", "saved", "--format", "json", "-o",
                    "c.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    again = json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))
    assert again["config"].get("rope_pairs", "half") == "half"
    np.testing.assert_allclose(step(again, "generator.logits"), step(tape, "generator.logits"),
                               rtol=0, atol=1e-13)


@pytest.mark.parametrize("options, part", [
    (("--pos", "rope", "--d-model", "8", "--heads", "2", "--norm-kind", "rms"),
     "a ReLU feed-forward network (Llama's is SwiGLU: --ffn swiglu)"),
    (("--preset", "llama", "--norm-kind", "layer"), "LayerNorm (Llama's is RMSNorm"),
    (("--preset", "llama", "--pos", "sinusoidal"), "sinusoidal positions"),
    (("--preset", "llama", "--norm", "post"), "post-norm"),
    (("--preset", "llama", "--attn-bias"), "attention biases"),
])
def test_a_model_that_is_not_llama_shaped_is_refused_naming_the_part(tmp_path, options, part):
    out = run_here("walk", "--family", "gpt", *options, "--save-weights", "hf", "--format",
                   "json", "-o", "a.json", cwd=tmp_path)
    assert out.returncode == 2
    lines = out.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and part in lines[0], lines
    assert not (tmp_path / "hf").exists() and not (tmp_path / "a.json").exists()


def test_the_folder_read_is_not_the_folder_written(tmp_path):
    walk_saving(tmp_path, CASES["preset"])
    out = run_here("walk", "--family", "gpt", "--weights", "hf", "--save-weights", "hf/",
                   "--format", "json", "-o", "b.json", cwd=tmp_path)
    assert out.returncode == 2 and b"names the --weights folder" in out.stderr


def test_the_plain_models_file_is_unchanged(tmp_path):
    """Without a part of today's LLMs, --save-weights still writes TorchGpt's names, to any name."""
    done = run_here("walk", "--family", "gpt", "--save-weights", "plain", "--format", "json",
                    "-o", "a.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with safe_open(str(tmp_path / "plain"), "np") as f:
        assert "layers.0.self_attn.in_proj_weight" in set(f.keys())


def test_a_folder_given_to_the_encoder_decoder_is_refused_by_name(tmp_path):
    walk_saving(tmp_path, CASES["preset"])
    out = run_here("walk", "--weights", "hf", cwd=tmp_path)
    assert out.returncode == 2 and b"'hf' is a folder" in out.stderr


@pytest.mark.parametrize("theta", [500.0, float("nan")])
def test_a_folder_whose_rope_theta_disagrees_with_its_model_is_refused(tmp_path, theta):
    """transformers would turn q and k with config.json's base: a folder whose base is not the
    model's it describes (or is no number) is refused, not walked with the other."""
    walk_saving(tmp_path, CASES["preset"])
    path = tmp_path / "hf" / "config.json"
    fields = json.loads(path.read_text(encoding="utf-8"))
    fields["rope_parameters"]["rope_theta"] = fields["rope_theta"] = theta
    path.write_text(json.dumps(fields), encoding="utf-8")
    out = run_here("walk", "--family", "gpt", "--weights", "hf", "--format", "json", "-o",
                   "b.json", cwd=tmp_path)
    lines = out.stderr.decode().strip().splitlines()
    assert out.returncode == 2 and len(lines) == 1 and "rope_theta" in lines[0], lines
    assert not (tmp_path / "b.json").exists()
