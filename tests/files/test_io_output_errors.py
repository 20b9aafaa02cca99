"""The one writer: every format through the registry, every OS error one line and exit 2.

A path under a regular file, a folder as target, a missing folder, a read-only file system and
a full disk (a 64 KiB tmpfs, mounted when the tests run as root) each end in exactly one line
on stderr, status 2, the old file intact and no temporary file left behind.
"""

import os
import subprocess
import sys

import pytest

import handformer
from handformer.cli import main
from handformer.files.io import OutputError, atomic_write
from handformer.render import registry
from support.unprivileged import as_nobody, env_for_nobody

STEP = "encoder.0.self_attn.head.0.scores"  # what the figures draw


def run_walk(capsys, fmt, output):
    """Exit status and stderr lines of `walk --format fmt -o output`."""
    with pytest.raises(SystemExit) as done:
        main(["walk", "--format", fmt, "--step", STEP, "-o", str(output)])
    return done.value.code, capsys.readouterr().err.splitlines()


def assert_one_clear_line(code, err, *words):
    assert code == 2
    assert len(err) == 1, err
    assert err[0].startswith("error: cannot write") or err[0].startswith("error: '"), err
    assert "Traceback" not in err[0]
    for word in words:
        assert word in err[0], err


@pytest.mark.parametrize("fmt", registry.names())
def test_a_path_under_a_regular_file(tmp_path, capsys, fmt):
    afile = tmp_path / "afile"
    afile.write_text("a file, not a folder")
    code, err = run_walk(capsys, fmt, afile / f"x.{fmt}")
    assert_one_clear_line(code, err, "is a file, not a folder", str(afile))
    assert afile.read_text() == "a file, not a folder"


@pytest.mark.parametrize("fmt", ["terminal", "svg"])
def test_a_folder_as_target(tmp_path, capsys, fmt):
    code, err = run_walk(capsys, fmt, tmp_path)
    assert_one_clear_line(code, err, "is a folder")


def test_a_missing_folder(tmp_path, capsys):
    code, err = run_walk(capsys, "json", tmp_path / "nope" / "x.json")
    assert_one_clear_line(code, err, "folder does not exist")


@pytest.mark.process
def test_no_traceback_in_a_real_process(tmp_path):
    """The issue's case, end to end: a path under a file, --format json."""
    (tmp_path / "afile").write_text("")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    argv = ["walk", "--format", "json", "-o", "afile/x.json"]
    done = subprocess.run([sys.executable, "-c", "import sys; from handformer.cli import main; "
                           "main(sys.argv[1:])", *argv], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == "error: cannot write 'afile/x.json': 'afile' is a file, not a folder\n"


@pytest.fixture
def tmpfs(tmp_path):
    """A small tmpfs mounted under tmp_path (root only), unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mounted = []

    def mount(options):
        where = tmp_path / f"mnt{len(mounted)}"
        where.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
                              capture_output=True, text=True)
        if done.returncode:
            pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
        mounted.append(where)
        return where

    yield mount
    for where in mounted:
        subprocess.run(["umount", str(where)], check=True)


@pytest.mark.process
def test_a_full_disk_keeps_the_old_file_and_leaves_no_temporary(tmpfs, capsys):
    disk = tmpfs("size=64k")
    page = disk / "page.html"
    page.write_text("the old page")
    code, err = run_walk(capsys, "html", page)  # the tutorial's page is far over 64 KiB
    assert_one_clear_line(code, err, "no space left")
    assert page.read_text() == "the old page"
    assert sorted(p.name for p in disk.iterdir()) == ["page.html"]
    with pytest.raises(OutputError, match="no space left"):
        atomic_write(page, b"x" * 200_000)
    assert sorted(p.name for p in disk.iterdir()) == ["page.html"]


@pytest.mark.process
def test_a_read_only_file_system(tmpfs, capsys):
    """Root ignores permission bits; a read-only mount refuses even root."""
    disk = tmpfs("ro,size=64k")
    code, err = run_walk(capsys, "markdown", disk / "walk.md")
    assert_one_clear_line(code, err, "read-only")
    assert list(disk.iterdir()) == []


WRITE_INTO = """
import sys
from pathlib import Path
from handformer.files.io import OutputError, atomic_write
try:
    atomic_write(Path(sys.argv[1]) / "x.json", b"{}")
except OutputError as err:
    print(err)
"""


@pytest.mark.process
def test_permission_denied_as_a_normal_user(open_folder):
    """Root writes anywhere, so as root the write is made by user nobody."""
    locked = open_folder / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    nobody = as_nobody()
    if not nobody:  # not root: this process is the normal user
        with pytest.raises(OutputError, match="permission denied"):
            atomic_write(locked / "x.json", b"{}")
    else:
        done = subprocess.run([*nobody, sys.executable, "-c", WRITE_INTO, str(locked)],
                              env=env_for_nobody(), capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "permission denied" in done.stdout and "x.json" in done.stdout
    assert list(locked.iterdir()) == []


@pytest.fixture(scope="module")
def tape():
    return handformer.walk()


def test_the_registry_returns_and_never_writes(tape, tmp_path, monkeypatch):
    """Every renderer returns text or bytes (bytes only for images) and touches no file."""
    monkeypatch.chdir(tmp_path)

    def refuse(*args, **kwargs):
        raise AssertionError("a renderer wrote a file")

    monkeypatch.setattr(os, "replace", refuse)
    monkeypatch.setattr("handformer.files.io.atomic_write", refuse)
    options = registry.Options(step=STEP, steps="4")
    for name in registry.names():
        out = registry.render(tape, name, options)
        assert isinstance(out, bytes if registry.get(name).binary else str), name
        assert out, name
    assert list(tmp_path.iterdir()) == []


def test_what_walk_writes_is_what_the_renderer_returns(tape, tmp_path, capsys):
    """The writer adds nothing and loses nothing: the file holds the renderer's output."""
    expected = {"json": b'{"format":"handformer.tape/1"', "markdown": b"# handformer",
                "svg": b"<?xml", "png": b"\x89PNG\r\n\x1a\n"}
    for fmt, start in expected.items():
        out = tmp_path / f"walk.{fmt}"
        with pytest.raises(SystemExit) as done:
            main(["walk", "--format", fmt, "--step", STEP, "-o", str(out)])
        assert done.value.code == 0
        assert capsys.readouterr().err == f"wrote {out}\n"
        data = registry.render(tape, fmt, registry.Options(step=STEP))
        assert out.read_bytes() == (data if isinstance(data, bytes) else data.encode("utf-8"))
        assert out.read_bytes().startswith(start)


def test_a_binary_format_needs_a_file(capsys):
    with pytest.raises(SystemExit) as done:
        main(["walk", "--format", "png", "--step", STEP])
    assert done.value.code == 2
    assert capsys.readouterr().err == "error: --format png writes a file: give -o FILE.png\n"


def test_a_format_registered_later_is_offered_by_walk(tmp_path, capsys, monkeypatch):
    """A new format is one module with render(tape, options) and one register() call: walk
    offers it and writes what it returns."""
    monkeypatch.setattr(registry, "_RENDERERS", dict(registry._RENDERERS))
    (tmp_path / "steps_format.py").write_text(
        "def render(tape, options):\n"
        "    return '\\n'.join(s.name for s in tape.steps) + '\\n'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.register(registry.Renderer("steps", "steps_format"))
    out = tmp_path / "steps.txt"
    with pytest.raises(SystemExit) as done:
        main(["walk", "--format", "steps", "-o", str(out)])
    assert done.value.code == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "src.ids" and lines[-1] == "loss"


def test_the_unknown_format_names_the_registered_ones():
    with pytest.raises(handformer.HandformerError, match="formats are terminal, json"):
        registry.get("ods")


@pytest.mark.parametrize("argv", [
    ["walk", "--save-weights", "afile/w.safetensors"],
    ["train", "--epochs", "1", "--save", "afile/run.ckpt"],
    ["train", "--epochs", "1", "--save", "run.ckpt", "--plot", "afile/loss.png"],
])
def test_weights_checkpoints_and_plots_share_the_writer(tmp_path, capsys, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("")
    with pytest.raises(SystemExit) as done:
        main(argv)
    err = capsys.readouterr().err.splitlines()
    assert done.value.code == 2
    assert err[-1].startswith("error: cannot write 'afile/") and "Traceback" not in str(err)
    assert err[-1].endswith("'afile' is a file, not a folder")
