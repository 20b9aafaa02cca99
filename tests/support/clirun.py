"""Running handformer as a user would, on files built in the test.

Two ways, one result (a ``subprocess.CompletedProcess`` with stdout and stderr as bytes):

- ``run`` starts the console script (or ``python -c``) in a subprocess under ``prlimit --as``,
  so an allocation that would take the machine down fails the test instead. For cases where the
  process is the point: memory bounds, exit on signals, pipes, the environment, another user.
- ``run_here`` calls ``main(argv)`` in this process, as the console script would (the same
  streams as bytes, the environment and folder of the case, NumPy's default error handling,
  warnings written to stderr, an uncaught exception as a traceback on stderr and status 1), at
  a fraction of a process's cost.

A refusal must be: exit status 2, one line on stderr that starts with "error:", no traceback,
and no file in the case's folder changed (hashes before and after).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import traceback
import warnings
from pathlib import Path

import numpy as np
import pytest

MEMORY_BOUND = 3 * 2**30  # bytes of address space; the largest legitimate case uses ~1.2 GiB
SCRIPT = Path(sys.executable).parent / "handformer"
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [
    sys.executable, "-c", "import sys; from handformer.cli import main; sys.exit(main())"]


def run(*args, cwd, env: dict | None = None, timeout: float | None = None,
        user: list[str] = ()) -> subprocess.CompletedProcess:
    """handformer ARGS in ``cwd`` under the memory bound; stdout and stderr as bytes.
    ``user``: a prefix that runs it as another user (support.unprivileged.as_nobody).

    A case that takes longer than HOSTILE_TIMEOUT seconds (default 300) fails: a refusal is
    meant to come before the work, not after minutes of it.
    """
    timeout = timeout or float(os.environ.get("HOSTILE_TIMEOUT", "300"))
    prefix = ["prlimit", f"--as={MEMORY_BOUND}", "--"] if shutil.which("prlimit") else []
    inherited = {k: v for k, v in os.environ.items() if k != "HANDFORMER_LIMITS"}
    full_env = inherited | {"COLUMNS": "100"} | (env or {})
    return subprocess.run([*prefix, *user, *COMMAND, *map(str, args)], cwd=cwd, env=full_env,
                          capture_output=True, timeout=timeout)


def run_here(*args, cwd, env: dict | None = None,
             timeout: float | None = None) -> subprocess.CompletedProcess:
    """handformer ARGS through ``main(argv)`` in this process, in ``cwd``, with the environment
    ``run`` gives a subprocess (COLUMNS 100, no HANDFORMER_LIMITS, then ``env``). Nothing bounds
    its memory: cases about memory use ``run``. A case slower than the timeout fails after it
    ends (nothing can stop it here)."""
    from click.testing import CliRunner

    from handformer.cli import main

    timeout = timeout or float(os.environ.get("HOSTILE_TIMEOUT", "300"))
    argv = list(map(str, args))
    start = time.monotonic()
    with _in_folder(cwd), np.errstate(all="warn", under="ignore"), _warnings_to_stderr():
        result = CliRunner().invoke(main, argv, prog_name="handformer",
                                    env={"COLUMNS": "100", "HANDFORMER_LIMITS": None, **(env or {})})
    elapsed = time.monotonic() - start
    assert elapsed < timeout, f"handformer {argv} took {elapsed:.0f} s (limit {timeout:.0f} s)"
    stderr = result.stderr_bytes + _traceback_of(result)
    return subprocess.CompletedProcess(["handformer", *argv], result.exit_code,
                                       result.stdout_bytes, stderr)


@contextlib.contextmanager
def _in_folder(folder):
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


@contextlib.contextmanager
def _warnings_to_stderr():
    """Warnings as a fresh interpreter shows them: once per place, on (the captured) stderr."""
    with warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = lambda message, category, filename, lineno, file=None, line=None: (
            sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line)))
        yield


def _traceback_of(result) -> bytes:
    """What the interpreter would print for an exception main() let through."""
    if result.exception is None or isinstance(result.exception, SystemExit):
        return b""
    return "".join(traceback.format_exception(*result.exc_info)).encode("utf-8", "replace")


def refused(result: subprocess.CompletedProcess, *words: str, lines: int = 1) -> str:
    """The stderr of a clean refusal; each of ``words`` must appear in it."""
    err = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    assert "MemoryError" not in err, err
    assert result.returncode == 2, (result.returncode, err)
    shown = err.strip().splitlines()
    assert len(shown) == lines, err
    assert shown[-1].startswith("error: "), err
    for word in words:
        assert word in err, (word, err)
    return err


def refused_by_main(capsys, argv, *never: str) -> str:
    """``main(argv)`` refuses in exactly one "error: " line (status 2, no traceback, no usage,
    none of ``never``); that line."""
    from handformer.cli import main

    with pytest.raises(SystemExit) as done:
        main(argv)
    out, err = capsys.readouterr()
    assert done.value.code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    for absent in ("Traceback", *never):
        assert absent not in err, err
    return lines[0]


def hashes(folder: Path) -> dict[str, str]:
    """SHA-256 of every file under ``folder`` (sparse giants by size and name only)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            size = path.stat().st_size
            out[str(path)] = f"size {size}" if size > 2**26 else hashlib.sha256(
                path.read_bytes()).hexdigest()
    return out


def refused_unchanged(folder: Path, *args, words=(), env=None, lines: int = 1,
                      runner=run) -> str:
    """Run (``runner``: ``run`` or ``run_here``), expect a refusal, and check that no file under
    ``folder`` was created or changed."""
    before = hashes(folder)
    err = refused(runner(*args, cwd=folder, env=env), *words, lines=lines)
    assert hashes(folder) == before
    return err


def refused_unchanged_here(folder: Path, *args, words=(), env=None, lines: int = 1) -> str:
    """refused_unchanged through ``main(argv)`` in this process (run_here)."""
    return refused_unchanged(folder, *args, words=words, env=env, lines=lines, runner=run_here)


# --- building hostile files ------------------------------------------------------------------


def safetensors_with(path: Path, tensors: dict[str, np.ndarray], metadata: dict[str, str]):
    from safetensors.numpy import save

    path.write_bytes(save({k: np.ascontiguousarray(v) for k, v in tensors.items()},
                          metadata=metadata))


def read_safetensors(path: Path) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    from safetensors.numpy import load

    raw = path.read_bytes()
    n = int.from_bytes(raw[:8], "little")
    return load(raw), json.loads(raw[8:8 + n])["__metadata__"]


def edit_checkpoint(src: Path, dst: Path, edit_meta=None, edit_tensors=None) -> Path:
    """A copy of a checkpoint with its metadata or tensors changed (checksum kept valid)."""
    tensors, meta = read_safetensors(src)
    tensors = dict(tensors)
    inner = json.loads(meta["handformer"])
    if edit_tensors:
        edit_tensors(tensors)
        from handformer.train.checkpoint import digest  # the checksum the format defines

        inner["sha256"] = digest(tensors)
    if edit_meta:
        edit_meta(inner)
    safetensors_with(dst, tensors, {"handformer": json.dumps(inner)})
    return dst


BERT_CONFIG = {"model_type": "bert", "hidden_act": "gelu", "vocab_size": 8, "hidden_size": 4,
               "num_attention_heads": 2, "num_hidden_layers": 1, "intermediate_size": 8,
               "max_position_embeddings": 16, "type_vocab_size": 2, "layer_norm_eps": 1e-12,
               "pad_token_id": 0}
BERT_VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", "world", "the", "storm"]


def bert_folder(folder: Path, config: dict | None = None, nan_in: str | None = None) -> Path:
    """A tiny BERT checkpoint folder (config.json, vocab.txt, model.safetensors) by hand."""
    folder.mkdir(parents=True, exist_ok=True)
    c = {**BERT_CONFIG, **(config or {})}
    (folder / "config.json").write_text(json.dumps(c), encoding="utf-8")
    (folder / "vocab.txt").write_text("\n".join(BERT_VOCAB) + "\n", encoding="utf-8")
    d, f, rng = 4, 8, np.random.default_rng(0)
    shapes = {"embeddings.word_embeddings.weight": (8, d),
              "embeddings.position_embeddings.weight": (16, d),
              "embeddings.token_type_embeddings.weight": (2, d),
              "embeddings.LayerNorm.weight": (d,), "embeddings.LayerNorm.bias": (d,)}
    layer = "encoder.layer.0."
    for m in ("attention.self.query", "attention.self.key", "attention.self.value",
              "attention.output.dense"):
        shapes |= {f"{layer}{m}.weight": (d, d), f"{layer}{m}.bias": (d,)}
    shapes |= {f"{layer}intermediate.dense.weight": (f, d), f"{layer}intermediate.dense.bias": (f,),
               f"{layer}output.dense.weight": (d, f), f"{layer}output.dense.bias": (d,)}
    for ln in ("attention.output.LayerNorm", "output.LayerNorm"):
        shapes |= {f"{layer}{ln}.weight": (d,), f"{layer}{ln}.bias": (d,)}
    tensors = {name: rng.normal(size=shape).astype(np.float32) for name, shape in shapes.items()}
    if nan_in:
        tensors[nan_in][0] = np.nan
    safetensors_with(folder / "model.safetensors", tensors, {"format": "pt"})
    return folder
