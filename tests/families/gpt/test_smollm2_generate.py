"""`handformer generate --pretrained smollm2-135m` in-process: the chat template (against the
file's own Jinja template), --chat, --explain, and the one-line refusals."""

from __future__ import annotations

import pytest

from handformer.families.gpt.pretrained_generate import chat_prompt
from support.clirun import run_here

from .smollm2_file import gguf_path

# The 98 MB model file is read (seconds) by every module here: make test, not make check.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def template():
    from handformer.families.gpt.gguf_model import fields_of, reader

    return fields_of(reader(gguf_path()))["tokenizer.chat_template"]


def test_the_chat_prompt_is_the_files_template_rendered(template):
    jinja2 = pytest.importorskip("jinja2", reason="needs jinja2 (pip)")
    prompt = "What is 2 + 2? Answer “briefly”."
    theirs = jinja2.Environment().from_string(template).render(
        messages=[{"role": "user", "content": prompt}], add_generation_prompt=True)
    assert chat_prompt(template, prompt) == theirs


def generate(tmp_path, *args):
    done = run_here("generate", "--pretrained", "smollm2-135m", *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def test_chat_answers_and_stops_at_the_end_of_its_turn(tmp_path):
    gguf_path()
    out = generate(tmp_path, "--chat", "What is the capital of France?", "--max-new", "20")
    assert "Paris" in out and "<|im_end|>" not in out and "<|im_start|>" not in out


def test_explain_walks_the_first_new_token(tmp_path):
    gguf_path()
    out = generate(tmp_path, "--explain", "The capital of France is", "--max-new", "2")
    assert "Token 1: the draw picks “ĠParis”" in out
    assert out.rstrip().endswith("The capital of France is Paris.")


def test_its_own_model_switches_are_refused_in_one_line(tmp_path):
    for args, says in ((("--pretrained", "smollm2-135m", "--train-steps", "3", "x"),
                        "drop --train-steps"),
                       (("--chat", "x"), "go with --pretrained")):
        done = run_here("generate", *args, cwd=tmp_path)
        err = done.stderr.decode()
        assert done.returncode == 2 and err.count("\n") == 1 and says in err, err
