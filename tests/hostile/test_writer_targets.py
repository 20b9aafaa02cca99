"""The writer decides by what the final target is, not by how its path is spelled: a planted
link under /dev/shm or reached through /proc/self/cwd, a folder name ending in "/", named pipes
with nobody at the other end, and output names that hold terminal escapes."""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import pytest

from support.clirun import refused, run
from support.writer import hashes

pytestmark = pytest.mark.process  # pipes, /dev and /proc/self

OUTPUTS = {  # a command writing NAME, by kind of output
    "text": ["walk", "--steps", "1", "-o", "NAME"],
    "weights": ["walk", "--steps", "1", "--save-weights", "NAME"],
    "checkpoint": ["train", "--epochs", "1", "--quiet", "--save", "NAME"],
}
SHM = Path("/dev/shm")
QUICK = {"HANDFORMER_LIMITS": "stream_seconds=1"}


def command(kind: str, name: str) -> list[str]:
    return [name if a == "NAME" else a for a in OUTPUTS[kind]]


@pytest.fixture
def shm_folder(tmp_path):
    """A fresh folder under /dev/shm (a path under /dev/, where the old writer trusted links)."""
    if not SHM.is_dir() or not os.access(SHM, os.W_OK):
        pytest.skip("no writable /dev/shm")
    folder = SHM / f"hf-test-{os.getpid()}-{tmp_path.name}"
    folder.mkdir()
    yield folder
    for p in folder.iterdir():
        p.unlink()
    folder.rmdir()


def plant(folder: Path) -> Path:
    (folder / "VICTIM").write_text("the victim's own contents\n")
    (folder / "link.txt").symlink_to(folder / "VICTIM")
    return folder / "VICTIM"


@pytest.mark.parametrize("kind", OUTPUTS)
def test_a_link_under_dev_to_a_file_is_refused(shm_folder, kind):
    plant(shm_folder)
    before = hashes(shm_folder)
    refused(run(*command(kind, "link.txt"), cwd=shm_folder), "symbolic link", "VICTIM")
    assert hashes(shm_folder) == before


@pytest.mark.parametrize("kind", OUTPUTS)
def test_a_link_reached_through_proc_self_cwd_is_refused(tmp_path, kind):
    plant(tmp_path)
    before = hashes(tmp_path)
    result = run(*command(kind, "/proc/self/cwd/link.txt"), cwd=tmp_path)
    refused(result, "symbolic link")
    assert hashes(tmp_path) == before


def test_a_name_ending_in_a_slash_is_a_folder_not_a_file(tmp_path):
    refused(run("walk", "-o", "newdir/", cwd=tmp_path), "newdir/", "folder")
    assert list(tmp_path.iterdir()) == []


def test_a_pipe_nobody_reads_is_refused_after_stream_seconds(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    result = run("walk", "-o", "pipe", cwd=tmp_path, env=QUICK, timeout=60)
    refused(result, "pipe", "stream_seconds")


def test_a_pipe_with_a_reader_gets_the_whole_walkthrough(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    expected = run("walk", "--steps", "1", cwd=tmp_path).stdout
    got = {}
    reader = threading.Thread(target=lambda: got.setdefault("bytes", (tmp_path / "pipe")
                                                           .read_bytes()))
    reader.start()
    done = run("walk", "--steps", "1", "-o", "pipe", cwd=tmp_path, timeout=60)
    reader.join(30)
    assert done.returncode == 0, done.stderr
    assert got["bytes"] == expected and "· Define the dataset".encode() in expected


def test_a_link_to_a_pipe_is_written_through(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "link").symlink_to(tmp_path / "pipe")
    reader = subprocess.Popen(["cat", str(tmp_path / "pipe")], stdout=subprocess.PIPE)
    done = run("walk", "--steps", "1", "-o", "link", cwd=tmp_path, timeout=60)
    out, _ = reader.communicate(timeout=30)
    assert done.returncode == 0, done.stderr
    assert "· Define the dataset".encode() in out
    assert (tmp_path / "link").is_symlink()


def test_a_corpus_pipe_nobody_writes_is_refused_after_stream_seconds(tmp_path):
    os.mkfifo(tmp_path / "corpus")
    result = run("walk", "--corpus", "corpus", cwd=tmp_path, env=QUICK, timeout=60)
    refused(result, "corpus", "stream_seconds")


def test_a_corpus_pipe_with_a_writer_is_read(tmp_path):
    os.mkfifo(tmp_path / "corpus")
    writer = threading.Thread(target=lambda: (tmp_path / "corpus").write_text(
        "when you play the game\nyou win or you die\n"))
    writer.start()
    done = run("walk", "--steps", "1", "--corpus", "corpus", "--src", "you win",
               "--tgt", "you die", cwd=tmp_path, timeout=60)
    writer.join(30)
    assert done.returncode == 0, done.stderr


def test_the_wrote_line_shows_escapes_and_newlines_as_stand_ins(tmp_path):
    name = "a\nerror: forged\x1b]0;TITLE\x07.txt"
    done = run("walk", "--steps", "1", "-o", name, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    err = done.stderr.decode()
    assert err.count("\n") == 1 and "\x1b" not in err and "\x07" not in err
    assert err == "wrote a\u240aerror: forged\u241b]0;TITLE\u2407.txt\n"
    assert (tmp_path / name).is_file()
