"""`walk --family gpt --generate N`: the tokens it writes are `generate`'s (same model, prompt,
switches), for the plain model and with RoPE, RMSNorm, SwiGLU and grouped-query attention; the
key/value cache agrees with a pass over the whole sequence; what makes no sense is refused in
one line; the tape survives JSON and renders in every format and both languages."""

import json

import numpy as np
import pytest

from handformer import pipeline
from handformer.families.gpt.generation_story import narrators
from handformer.narrate.context import Ctx
from support.clirun import refused, run_here

PROMPT = "when you play the game"
MODELS = {"plain": [], "llama": ["--preset", "llama"],
          "mqa_rope": ["--kv-heads", "1", "--pos", "rope", "--d-model", "8"]}
SWITCHES = {"greedy": [], "hot": ["--temperature", "1.3", "--seed", "5"],
            "cut": ["--temperature", "0.9", "--top-k", "6", "--top-p", "0.8", "--seed", "2"]}


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ckpt")
    for name, sizes in MODELS.items():
        done = run_here("train", "--family", "gpt", *sizes, "--epochs", "15", "--quiet",
                        "--save", f"{name}.ckpt", cwd=folder)
        assert done.returncode == 0, done.stderr.decode()
    return folder


def generated(folder, *args) -> list[str]:
    done = run_here("generate", PROMPT, *args, cwd=folder)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode().split()


def walked(folder, *args) -> dict:
    done = run_here("walk", "--family", "gpt", "--src", PROMPT, *args, "--format", "json",
                    "-o", "t.json", cwd=folder)
    assert done.returncode == 0, done.stderr.decode()
    return json.loads((folder / "t.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("switches", SWITCHES)
@pytest.mark.parametrize("model", MODELS)
def test_the_walk_writes_what_generate_writes(checkpoints, model, switches):
    ckpt, extra, n = f"{model}.ckpt", SWITCHES[switches], 5
    want = generated(checkpoints, "--checkpoint", ckpt, "--max-new", str(n), *extra)
    tape = walked(checkpoints, "--checkpoint", ckpt, "--generate", str(n), *extra)
    told = tape["generate"]
    assert [w for w in told["tokens"] if w != "<end>"] == want
    assert told["max_abs_diff"] <= 1e-12
    steps = {s["name"]: s for s in tape["steps"]}
    diff = np.asarray(steps["gen.check.diff"]["value"])
    assert diff.shape[0] == len(told["prompt_ids"]) + len(told["ids"]) - 1
    assert diff.max() == told["max_abs_diff"]


@pytest.mark.parametrize("seed", [0, 3])
def test_untrained_walk_and_generate_share_weights_and_draws(tmp_path, seed):
    extra = ["--temperature", "1.5", "--seed", str(seed)]
    want = generated(tmp_path, "--train-steps", "0", "--max-new", "4", *extra)
    told = walked(tmp_path, "--generate", "4", *extra)["generate"]
    assert [w for w in told["tokens"] if w != "<end>"] == want
    assert [s["u"] for s in told["steps"]] == np.random.default_rng(seed).random(
        len(told["steps"])).tolist()


def test_the_cache_grows_one_row_a_step_and_keeps_kv_heads(checkpoints):
    tape = walked(checkpoints, "--checkpoint", "mqa_rope.ckpt", "--generate", "4",
                  "--temperature", "2", "--seed", "1")
    steps, n = {s["name"]: s for s in tape["steps"]}, len(tape["generate"]["prompt_ids"])
    for t in range(1, len(tape["generate"]["steps"])):
        k = steps[f"gen.{t}.decoder.0.self_attn.k_cache"]
        assert k["shape"][:2] == [1, n + t]  # one key/value head, one more row each step
        assert f"gen.{t}.decoder.0.self_attn.k_rot" in steps  # turned at its own position


def test_the_cached_step_equals_the_full_pass_row_by_row():
    """With RoPE and GQA: the last row of each step against the full pass's row."""
    done = pipeline.run({"family": "gpt", "preset": "llama", "src": PROMPT, "generate": 3,
                         "temperature": 1.0, "seed": 4})
    tape = done.tape
    full, cached = tape["gen.check.full"], tape["gen.check.cached"]
    assert np.abs(full - cached).max() <= 1e-12
    for t in range(1, len(tape.meta["generate"]["steps"])):
        row = len(tape.meta["generate"]["prompt_ids"]) + t - 1
        assert np.abs(tape[f"gen.{t}.generator.logits"][-1] - full[row]).max() <= 1e-12


@pytest.mark.parametrize("args, words", [
    (["walk", "--generate", "2"], ("--generate", "transformer", "--family gpt")),
    (["walk", "--family", "bert", "--generate", "2"], ("--generate", "bert")),
    (["walk", "--family", "gpt", "--generate", "2", "--top-p", "1.5"], ("--top-p",)),
    (["walk", "--family", "gpt", "--generate", "2", "--top-p", "0"], ("--top-p",)),
    (["walk", "--family", "gpt", "--generate", "2", "--backward"], ("--backward",)),
    (["walk", "--family", "gpt", "--generate", "2", "--tgt", "you win"], ("--tgt",)),
    (["walk", "--family", "gpt", "--temperature", "1"], ("--generate",)),
    (["walk", "--family", "gpt", "--max-len", "10", "--generate", "3"], ("max_len", "1 to 2")),
    (["generate", "when you", "--train-steps", "0", "--top-p", "0"], ("--top-p",)),
])
def test_what_makes_no_sense_is_refused(tmp_path, args, words):
    refused(run_here(*args, cwd=tmp_path), *words)


def test_json_round_trip_renders_the_same(tmp_path):
    args = ["--family", "gpt", "--generate", "3", "--temperature", "1.5", "--top-k", "8",
            "--seed", "3"]
    direct = run_here("walk", *args, "--format", "markdown", cwd=tmp_path)
    saved = run_here("walk", *args, "--format", "json", "-o", "t.json", cwd=tmp_path)
    again = run_here("render", "t.json", "--format", "markdown", cwd=tmp_path)
    assert direct.returncode == saved.returncode == again.returncode == 0, again.stderr
    assert again.stdout == direct.stdout
    assert "The cache against a pass over the whole sequence" in again.stdout.decode()


@pytest.mark.parametrize("lang, title", [("en", "the draw picks"), ("zh", "抽样选中")])
@pytest.mark.parametrize("fmt", ["terminal", "markdown", "html"])
def test_renders_in_every_format_and_language(tmp_path, lang, title, fmt):
    out = ["-o", "page.html"] if fmt == "html" else []
    done = run_here("walk", "--family", "gpt", "--generate", "2", "--temperature", "1",
                    "--seed", "3", "--lang", lang, "--format", fmt, "--no-pager", *out,
                    cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    text = (tmp_path / "page.html").read_text(encoding="utf-8").replace("<wbr>", "") if out else \
        done.stdout.decode()
    assert title in text


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("options", [{"preset": "llama"},
                                     {"kv_heads": 1, "pos": "rope", "d_model": 8}])
def test_the_generation_story_tells_rope_and_gqa(lang, options):
    tape = pipeline.run({"family": "gpt", "src": PROMPT, "generate": 3, "temperature": 1.0,
                         "seed": 2, **options}).tape
    ctx = Ctx(tape, lang)
    for narrator in narrators(tape):
        narrator(ctx)
    text = " ".join(p for s in ctx.sections for p in s.paragraphs)
    assert ("RoPE" in text or "rotary" in text or "旋转" in text)
    assert ("Grouped-query" in text or "分组查询" in text)
    assert ctx.sections[-1].id == "gen.result"
