"""Every quick command the READMEs (English and Chinese) and docs/ show, run as written: each
fenced shell block's `handformer ...` lines in order, in one temporary folder (so a file one
line writes is there for the next), each expected to exit 0. Lines that train on real corpora, start a server, take
minutes or need what such a line makes are left out by the patterns in SLOW, said here.

A line of plain handformer commands (joined by &&, perhaps with a comment) goes through
main(argv) in this process, as the console script would run it (support.clirun.run_here);
any other shell (a variable, a pipe, a redirection) goes to bash."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from support.clirun import run_here
from support.paths import ROOT

DOCS = [ROOT / "README.md", ROOT / "README.zh-CN.md", *sorted((ROOT / "docs").glob("*.md"))]
SLOW = ("handformer serve", "--dataset", "--preset paper", "hsk.ckpt", "tatoeba", "torchrun",
        "benchmarks/", "pip install", "make ", "curl ",
        "smollm2-135m")  # ~20 s each and the smollm2 extra: tests/families/gpt/test_smollm2_*
FENCE = re.compile(r"```(?:bash|sh|shell)\n(.*?)```", re.S)

pytestmark = pytest.mark.slow


def commands(text: str) -> list[list[str]]:
    """Each shell block's handformer command lines (continuations joined), block by block."""
    blocks = []
    for body in FENCE.findall(text):
        lines = body.replace("\\\n", " ").splitlines()
        runs = [line.strip() for line in lines if re.match(r"\s*(\w+=\S+ )?handformer ", line)]
        if runs:
            blocks.append(runs)
    return blocks


def quick(line: str) -> bool:
    return not any(pattern in line for pattern in SLOW)


def test_plain_lines_run_in_process_and_any_other_shell_in_bash():
    assert plain_commands('handformer walk --src "a b"  # x') == [["handformer", "walk", "--src",
                                                                   "a b"]]
    assert plain_commands("handformer walk -o t.json && handformer render t.json") == [
        ["handformer", "walk", "-o", "t.json"], ["handformer", "render", "t.json"]]
    for line in ["HANDFORMER_PAGER=cat handformer walk", "handformer walk | head",
                 "handformer walk > out.txt", "handformer walk --src $X", "handformer walk; ls"]:
        assert plain_commands(line) is None, line


def test_the_extractor_reads_continuations_and_leaves_prose_out():
    text = ("text handformer walk\n```bash\nhandformer walk --src \"a b\" \\\n    --tgt c  # x\n"
            "make demo\n```\n```python\nhandformer.walk()\n```\n")
    assert commands(text) == [['handformer walk --src "a b"      --tgt c  # x']]


def test_each_readme_links_the_other_and_every_docs_page():
    english, chinese = (ROOT / "README.md").read_text("utf-8"), (ROOT / "README.zh-CN.md").read_text("utf-8")
    assert "(README.zh-CN.md)" in "".join(english.splitlines()[:4])
    assert "(README.md)" in "".join(chinese.splitlines()[:4])
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"(docs/{page.name})" in english and f"(docs/{page.name})" in chinese, page.name


def test_the_docs_show_commands_to_run():
    found = [line for doc in DOCS for block in commands(doc.read_text(encoding="utf-8"))
             for line in block if quick(line)]
    assert len(found) >= 20 and any("render tape.json" in line for line in found)


@pytest.mark.process
@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_quick_command_of_a_doc_exits_0(doc, tmp_path):
    shutil_examples(tmp_path)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "COLUMNS": "100"}
    for block in commands(doc.read_text(encoding="utf-8")):
        for line in filter(quick, block):
            done = run_line(line, tmp_path, env)
            assert done.returncode == 0, f"{doc.name}: {line}\n{done.stderr[-2000:]}"


def run_line(line: str, folder: Path, env: dict) -> subprocess.CompletedProcess:
    """One doc line in ``folder``; stderr as text."""
    argvs = plain_commands(line)
    if argvs is None:
        return subprocess.run(["bash", "-c", line], cwd=folder, env=env, timeout=300,
                              capture_output=True, text=True, stdin=subprocess.DEVNULL)
    for argv in argvs:
        done = run_here(*argv[1:], cwd=folder, env={"COLUMNS": "100"})
        if done.returncode:
            break
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout,
                                       done.stderr.decode("utf-8", "replace"))


def plain_commands(line: str) -> list[list[str]] | None:
    """The argv of each `handformer ...` command of a line that holds nothing else but && and a
    comment, or None."""
    code = shlex.split(line, comments=True)
    if not code or re.search(r"[|<>;$`]", " ".join(code).replace("&&", "")):
        return None
    argvs, current = [], []
    for word in [*code, "&&"]:
        if word == "&&":
            argvs.append(current)
            current = []
        else:
            current.append(word)
    return argvs if all(a and a[0] == "handformer" for a in argvs) else None


def shutil_examples(folder: Path) -> None:
    """The repository's examples/ beside the commands, as a reader who cloned it has them."""
    import shutil

    shutil.copytree(ROOT / "examples", folder / "examples")

