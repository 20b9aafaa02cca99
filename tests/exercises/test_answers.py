"""Every answer of several worksheets, checked twice: against the number at its step and cell in
`walk --format json` run with the same options (to 1e-9), and against a recomputation written
here from the values the question gives (to 1e-9). A third check: the values as the worksheet
shows them (rounded) lead to the answer within the tolerance the question states."""

import json
import math
import re

import numpy as np
import pytest
from click.testing import CliRunner

from handformer.cli import main

CLOSE = 1e-9


def run_cli(*argv):
    result = CliRunner().invoke(main, [str(a) for a in argv])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    path = tmp_path_factory.mktemp("ckpt") / "t.ckpt"
    run_cli("train", "--quiet", "--epochs", "20", "--save", path)
    return path


def sheet_and_walk(tmp_path, options, sheet_options=()):
    run_cli("exercises", *options, *sheet_options, "--format", "json", "-o", tmp_path / "ex.json")
    run_cli("walk", *options, "--format", "json", "-o", tmp_path / "walk.json")
    return (json.loads((tmp_path / name).read_text(encoding="utf-8"))
            for name in ("ex.json", "walk.json"))


def number(x):
    return float(x) if not isinstance(x, str) else float(x.replace("∞", "inf"))


def on_walk(walk, step, field, cell):
    """The number at ``cell`` of ``step``'s ``field`` in the walk's tape file."""
    steps = {s["name"]: s for s in walk["steps"]}
    if field == "value":
        table = steps[step]["value"] if step in steps else walk["params"][step]
    elif field.startswith("extras."):
        table = steps[step]["extras"][field.removeprefix("extras.")]
    elif field == "grad":
        table = next(g["value"] for g in walk["grads"] if g["name"] == step)
    else:
        assert field == "update.after"
        table = walk["updates"][step]["after"]
    for i in cell:
        table = table[i]
    return number(table)


def shown_number(text):
    text = text.replace("−", "-").replace("∞", "inf")
    if text.startswith("["):
        return [float(v) for v in text[1:-1].split(", ")]
    return float(text)


def words_of(dataset):
    """The tutorial's tokenizer: lower-case, drop . and , and split at spaces."""
    return [w for line in dataset for w in re.sub(r"[.,]", "", line.lower()).split()]


def recompute(q, given):
    """The answer from the given values ``given`` (by symbol, or label), as a learner would."""
    j = q["cell"][-1] if q["cell"] else None
    kind = q["kind"]
    if kind == "token_id":
        word = re.search(r"“(.+?)”", q["question"]).group(1)
        if "ex.given.dataset" in given:
            return list(dict.fromkeys(words_of(given["ex.given.dataset"]))).index(word)
        return given["ex.given.first_id"] + given["ex.given.words"].index(word)
    if kind == "positional":
        pos, col, d = given["pos"], given["j"], given["d_model"]
        angle = pos / 10000 ** (2 * (col // 2) / d)
        return math.sin(angle) if col % 2 == 0 else math.cos(angle)
    if kind in ("input", "residual"):
        return sum(v for k, v in given.items() if k != "ex.given.term")
    if kind == "score":
        return float(np.dot(given["q_i"], given["k_j"])) / math.sqrt(given["d_k"])
    if kind == "scale":
        return given["q_i · k_j"] / math.sqrt(given["d_k"])
    if kind == "mask":
        return given["S_ij"] if given["M_i"][j] == 1 else -math.inf
    if kind == "softmax":
        row = np.array([number(v) for v in given["S_i"]])
        e = np.exp(row - row.max())
        return float(e[j] / e.sum())
    if kind == "weighted_sum":
        return float(np.dot(given["A_i"], given["V_c"]))
    if kind == "ln_mean":
        return float(np.mean(given["x_i"]))
    if kind == "ln_std":
        row = np.array(given["x_i"])
        return math.sqrt(float(np.mean((row - row.mean()) ** 2)) + given["ε"])
    if kind == "ln_norm":
        return given["γ_j"] * (given["x_ij"] - given["μ_i"]) / given["σ_i"] + given["β_j"]
    if kind == "ln_value":
        row = np.array(given["x_i"])
        sigma = math.sqrt(float(np.mean((row - row.mean()) ** 2)) + given["ε"])
        return given["γ_j"] * (row[j] - row.mean()) / sigma + given["β_j"]
    if kind == "relu":
        return max(0.0, given["h"])
    if kind == "gelu":
        return given["h"] / 2 * (1 + math.erf(given["h"] / math.sqrt(2)))
    if kind == "rope_pair":
        sign = -1.0 if "−" in q["formula"] else 1.0
        return given["x_j"] * math.cos(given["mθ_i"]) + sign * given["x_p"] * math.sin(given["mθ_i"])
    if kind == "rms_value":
        row = np.array(given["x_i"])
        return given["γ_j"] * row[j] / math.sqrt(float(np.mean(row ** 2)) + given["ε"])
    if kind == "swiglu_unit":
        return given["g"] / (1.0 + math.exp(-given["g"])) * given["u"]
    if kind == "ffn_unit":
        return max(0.0, float(np.dot(given["x_i"], given["W_:j"])) + given["b_j"])
    if kind == "logit":
        return float(np.dot(given["y_t"], given["W_:j"])) + given.get("b_j", 0.0)
    if kind == "probability":
        if "z_t" in given:
            row = np.array(given["z_t"])
            return float(np.exp(row[j]) / np.exp(row).sum())
        return math.exp(given["z_tj"]) / given["Σ_k e^{z_tk}"]
    if kind == "position_loss":
        eps = given.get("ε", 0.0)
        return -(1 - eps) * math.log(given["p_t,y_t"]) - eps * given.get("mean_w log p_t,w", 0.0)
    if kind == "loss":
        eps = given.get("ε", 0.0)
        logs = np.log(given["p_t,y_t"])
        mean_logs = np.array(given.get("mean_w log p_t,w", np.zeros_like(logs)))
        return float(-np.mean((1 - eps) * logs + eps * mean_logs))
    if kind == "grad_logit":
        eps, vocab = given.get("ε", 0.0), given.get("V", 1)
        q_target = (1 - eps) * given["[j = y_t]"] + eps / vocab
        return (given["p_tj"] - q_target) / given["|T|"]
    if kind == "grad_softmax":  # Jacobian of a softmax row: a_j (δ_jk − a_k), applied to g
        a, g = np.array(given["A_i"]), np.array(given["∂L/∂A_i"])
        return float(sum(g[k] * a[k] * ((k == j) - a[j]) for k in range(len(a))))
    if kind == "grad_norm":  # ∂y_m/∂x_j = γ_m (δ_mj − 1/d − x̂_m x̂_j / d) / σ, applied to g
        x, gamma, g = (np.array(given[k]) for k in ("x_i", "γ", "∂L/∂Y_i"))
        xhat, d = (x - given["μ_i"]) / given["σ_i"], len(x)
        return float(sum(g[m] * gamma[m] * ((m == j) - 1 / d - xhat[m] * xhat[j] / d)
                         for m in range(d)) / given["σ_i"])
    if kind == "grad_weight":
        return float(np.dot(given["X_:r"], given["∂L/∂Y_:c"]))
    assert kind == "sgd_update", kind
    return given["θ"] - given["η"] * given["g"]


def givens(q, shown=False):
    """The given values by symbol (or by label when a value has no symbol)."""
    found = {}
    for g in q["given"]:
        value = shown_number(g["shown"]) if shown and g["symbol"] and not isinstance(
            g["value"], str) and not _words(g["value"]) else g["value"]
        if g["label"] == "ex.given.term":
            found.setdefault("ex.given.term", [])
            found[g["symbol"]] = value
        else:
            found[g["symbol"] or g["label"]] = value
    return found


def _words(value):
    return isinstance(value, list) and value and isinstance(value[0], str) and not any(
        v in ("-inf", "inf") for v in value)


def close(a, b, tol):
    if math.isinf(b) or math.isinf(a):
        return a == b
    return abs(a - b) <= tol * max(1.0, abs(b))


CONFIGS = {
    "tutorial": [],
    "small": ["--preset", "small"],
    "backward": ["--backward"],
    "small-backward": ["--preset", "small", "--backward", "--lr", "0.5"],
    "zh": ["--lang", "zh"],
    "gpt": ["--family", "gpt", "--backward"],
    "llama": ["--family", "gpt", "--preset", "llama", "--backward"],
    "smoothing": ["--label-smoothing", "0.1", "--backward"],
}


@pytest.mark.slow
@pytest.mark.parametrize("name", CONFIGS)
@pytest.mark.parametrize("level", ["medium", "hard"])
def test_every_answer_is_the_tape_and_the_recomputation(tmp_path, name, level):
    options = [o for o in CONFIGS[name] if o not in ("--lang", "zh")]
    sheet_options = ["--level", level, "--seed", "7", "--count", "16"]
    if "--lang" in CONFIGS[name]:
        sheet_options += ["--lang", "zh"]
    sheet, walk = sheet_and_walk(tmp_path, options, sheet_options)
    _check(sheet, walk)


def test_a_default_sheet_has_ten_kinds_and_its_answers_hold(tmp_path):
    sheet, walk = sheet_and_walk(tmp_path, [])
    assert len(sheet["questions"]) == 12
    assert len({q["kind"] for q in sheet["questions"]}) >= 10
    _check(sheet, walk)


@pytest.mark.slow
def test_a_checkpoint_sheet(tmp_path, checkpoint):
    sheet, walk = sheet_and_walk(tmp_path, ["--checkpoint", checkpoint, "--backward"],
                                 ["--seed", "3", "--count", "20"])
    assert any(q["kind"] == "token_id" for q in sheet["questions"])
    _check(sheet, walk)


@pytest.mark.slow
def test_every_kind_of_a_backward_run(tmp_path):
    kinds = ("token_id,positional,input,score,scale,mask,softmax,weighted_sum,residual,ln_mean,"
             "ln_std,ln_norm,ln_value,relu,ffn_unit,logit,probability,position_loss,loss,grad_logit,"
             "grad_softmax,grad_norm,grad_weight,sgd_update")
    sheet, walk = sheet_and_walk(tmp_path, ["--backward"], ["--kinds", kinds, "--count", "40"])
    assert {q["kind"] for q in sheet["questions"]} == set(kinds.split(","))
    _check(sheet, walk)


def _check(sheet, walk):
    assert sheet["questions"]
    for q in sheet["questions"]:
        answer = number(q["answer"])
        tape = on_walk(walk, q["step"], q["field"], q["cell"])
        assert close(answer, tape, CLOSE), (q["kind"], answer, tape)
        assert close(recompute(q, givens(q)), tape, CLOSE), (q["kind"], q)
        by_hand = recompute(q, givens(q, shown=True))
        assert close(by_hand, answer, 0) or abs(by_hand - answer) <= q["tolerance"], (
            q["kind"], by_hand, answer, q["tolerance"])


@pytest.mark.slow
def test_bert_sheet_answers_hold():
    """BERT's tape (a pretrained model: its tape file would hold every weight, too large to
    write here) checked in the process: each answer against the step's own value, looked up
    here, and against the recomputation from the given values."""
    from handformer import pipeline
    from handformer.exercises import render
    from handformer.exercises.sheet import make_sheet

    tape = pipeline.run({"family": "bert", "src": "the storm comes"}).tape
    sheet = json.loads(render("json", make_sheet(tape, 16, seed=2), tape.meta, "en"))
    kinds = {q["kind"] for q in sheet["questions"]}
    assert {"gelu", "input", "score", "softmax", "ln_norm"} <= kinds
    for q in sheet["questions"]:
        table = (tape.index[q["step"]].extras[q["field"].removeprefix("extras.")]
                 if q["field"].startswith("extras.") else tape.value(q["step"]))
        expected = float(np.asarray(table)[tuple(q["cell"])])
        assert close(number(q["answer"]), expected, CLOSE)
        assert close(recompute(q, givens(q)), expected, CLOSE), q["kind"]


@pytest.mark.parametrize("options", [[], ["--label-smoothing", "0.1"], ["--family", "gpt"]])
def test_each_positions_loss_on_the_tape_averages_to_the_loss(tmp_path, options):
    """extras.per_position of the walk's loss: −log p_t,y_t (smoothed: (1 − ε)·(−log p_t,y_t)
    + ε·(−mean_w log p_t,w)) from the tape's own probabilities, and L is their mean."""
    _, walk = sheet_and_walk(tmp_path, options, ["--kinds", "position_loss", "--count", "1"])
    steps = {s["name"]: s for s in walk["steps"]}
    per = np.array(steps["loss"]["extras"]["per_position"])
    p = np.array(steps["generator.probs"]["value"])
    targets = np.array(walk["target"]["ids"])
    eps = 0.1 if options[:1] == ["--label-smoothing"] else 0.0
    by_hand = [-(1 - eps) * math.log(p[t, y]) - eps * float(np.log(p[t]).mean())
               for t, y in enumerate(targets)]
    np.testing.assert_allclose(per, by_hand, rtol=0, atol=1e-12)
    assert abs(per.mean() - steps["loss"]["value"]) < 1e-12
