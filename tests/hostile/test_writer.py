"""The one writer under attack and bad luck: planted links, read-only and linked targets,
outputs that are inputs, work that fails after a write, killed runs, two runs on one
checkpoint, a full disk. Every case runs the command line in a subprocess."""

from __future__ import annotations

import os
import signal
import stat
import subprocess

import pytest

from support.writer import (
    LONG_TRAIN,
    digest,
    fill,
    handformer,
    hashes,
    next_pids,
    one_line,
    running,
    small_tmpfs,
    temporaries,
    wait_for,
)

pytestmark = pytest.mark.process  # umasks, locks, kill -9 and users

STEP = "encoder.0.self_attn.head.0.scores"  # a step the figures draw
PAIRS = "when you play\tyou win\nthe game of thrones\tor you die\n"
OUTPUTS = {  # a command writing NAME, by kind of output
    "text": ["walk", "-o", "NAME"],
    "json": ["walk", "--format", "json", "-o", "NAME"],
    "weights": ["walk", "--save-weights", "NAME"],
    "checkpoint": ["train", "--epochs", "1", "--quiet", "--save", "NAME"],
}


def command(kind: str, name: str) -> list[str]:
    return [name if a == "NAME" else a for a in OUTPUTS[kind]]


@pytest.mark.parametrize("kind", OUTPUTS)
def test_links_planted_at_temporary_names_are_not_followed(tmp_path, kind):
    """A link at every name the old writer would use next (.NAME.tmp-PID) and at guesses of
    the new one's names: the file they point to stays as it was."""
    victim = tmp_path / "victim"
    victim.write_text("the victim's own contents\n")
    work = tmp_path / "work"
    work.mkdir()
    (work / "out").write_text("old output")
    planted = [work / f".out.tmp-{pid}" for pid in next_pids(400)]
    planted += [work / f".out.{pid}.{'0' * 16}.hf-tmp" for pid in next_pids(20)]
    for link in planted:
        link.symlink_to(victim)
    done = handformer(*command(kind, "out"), cwd=work)
    assert done.returncode == 0, done.stderr
    assert victim.read_text() == "the victim's own contents\n"
    assert all(link.is_symlink() and os.readlink(link) == str(victim) for link in planted)
    assert (work / "out").read_bytes() != b"old output"


def test_a_600_file_stays_600(tmp_path):
    (tmp_path / "out.txt").write_text("old")
    (tmp_path / "out.txt").chmod(0o600)
    assert handformer("walk", "-o", "out.txt", cwd=tmp_path).returncode == 0
    assert stat.S_IMODE((tmp_path / "out.txt").stat().st_mode) == 0o600


def test_a_new_file_gets_the_umask_mode(tmp_path):
    assert handformer("walk", "-o", "out.txt", cwd=tmp_path, umask=0o027).returncode == 0
    assert stat.S_IMODE((tmp_path / "out.txt").stat().st_mode) == 0o640


def test_root_rewriting_a_users_file_leaves_it_theirs(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("only root can give a file to another user")
    (tmp_path / "out.txt").write_text("old")
    os.chown(tmp_path / "out.txt", 4321, 4321)
    assert handformer("walk", "-o", "out.txt", cwd=tmp_path).returncode == 0
    st = (tmp_path / "out.txt").stat()
    assert (st.st_uid, st.st_gid) == (4321, 4321)


@pytest.mark.parametrize("kind", ["text", "weights", "checkpoint"])
def test_a_read_only_target_is_refused(tmp_path, kind):
    target = tmp_path / "out"
    target.write_text("read-only, keep me")
    target.chmod(0o444)
    before = hashes(tmp_path)
    one_line(handformer(*command(kind, "out"), cwd=tmp_path), "read-only", "'out'")
    assert hashes(tmp_path) == before
    assert stat.S_IMODE(target.stat().st_mode) == 0o444


@pytest.mark.parametrize("dangling", [False, True])
def test_a_link_to_a_file_is_refused_not_followed(tmp_path, dangling):
    victim = tmp_path / "victim.txt"
    if not dangling:
        victim.write_text("keep me")
    (tmp_path / "link.txt").symlink_to(victim)
    before = hashes(tmp_path)
    one_line(handformer("walk", "-o", "link.txt", cwd=tmp_path), "symbolic link",
             str(victim))
    assert hashes(tmp_path) == before


def test_a_link_to_a_device_and_dev_stdout_are_written_through(tmp_path):
    (tmp_path / "null").symlink_to(os.devnull)
    assert handformer("walk", "-o", "null", cwd=tmp_path).returncode == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode) and (tmp_path / "null").is_symlink()
    link = os.readlink("/dev/stdout")
    try:
        with open(tmp_path / "page.txt", "w") as page:
            done = handformer("walk", "-o", "/dev/stdout", cwd=tmp_path, stdout=page)
        assert os.readlink("/dev/stdout") == link  # main's writer, as root, replaced it
    finally:
        if not os.path.islink("/dev/stdout") and os.geteuid() == 0:
            os.unlink("/dev/stdout")  # put the system's link back for everyone else
            os.symlink(link, "/dev/stdout")
    assert done.returncode == 0, done.stderr
    assert "Step 1" in (tmp_path / "page.txt").read_text()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """A folder with one input of each kind: corpus, pairs, weights, tape, checkpoint."""
    folder = tmp_path_factory.mktemp("inputs")
    (folder / "corpus.txt").write_text("when you play the game\nyou win or you die\n")
    (folder / "pairs.tsv").write_text(PAIRS)
    for args in (["walk", "--save-weights", "w.safetensors"], ["walk", "--format", "json", "-o",
                 "tape.json"], ["train", "--epochs", "2", "--quiet", "--save", "run.png"]):
        assert handformer(*args, cwd=folder).returncode == 0
    os.link(folder / "corpus.txt", folder / "hardlink.txt")
    return folder


@pytest.mark.parametrize("args, words", [
    (["walk", "--corpus", "corpus.txt", "--src", "you win", "--tgt", "you die", "-o",
      "corpus.txt"], ["--corpus file"]),
    (["walk", "--corpus", "corpus.txt", "--src", "you win", "--tgt", "you die", "-o",
      "hardlink.txt"], ["--corpus file"]),
    (["walk", "--weights", "w.safetensors", "-o", "w.safetensors"], ["--weights file"]),
    (["walk", "--weights", "w.safetensors", "--save-weights", "./w.safetensors"],
     ["--weights file"]),
    (["render", "tape.json", "-o", "tape.json"], ["tape"]),
    (["walk", "-o", "x.out", "--save-weights", "x.out"], ["-o", "--save-weights"]),
    (["train", "--pairs", "pairs.tsv", "--save", "pairs.tsv"], ["--pairs file"]),
    (["train", "--resume", "run.png", "--plot", "run.png"], ["--resume checkpoint"]),
], ids=["corpus", "hard-link", "weights", "save-weights", "tape", "two-outputs", "pairs",
        "plot-resume"])
def test_an_output_that_is_an_input_is_refused(inputs, args, words):
    before = hashes(inputs)
    one_line(handformer(*args, cwd=inputs), *words)
    assert hashes(inputs) == before


def test_resume_writes_the_checkpoint_it_reads_by_design(tmp_path):
    assert handformer("train", "--epochs", "2", "--quiet", "--save", "c.ckpt",
                      cwd=tmp_path).returncode == 0
    old = digest(tmp_path / "c.ckpt")
    done = handformer("train", "--resume", "c.ckpt", "--epochs", "3", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert digest(tmp_path / "c.ckpt") != old


@pytest.mark.parametrize("args", [
    ["walk", "--save-weights", "w.safetensors", "--src", "notaword"],
    ["walk", "--save-weights", "w.safetensors", "--format", "svg", "--step", "nosuch",
     "-o", "x.svg"],
    ["walk", "--save-weights", "w.safetensors", "--format", "png"],
    ["train", "--epochs", "1", "--save", "c.ckpt", "--plot", "nofolder/loss.svg"],
], ids=["bad-source", "bad-step", "png-without-file", "plot-folder"])
def test_nothing_is_written_when_a_later_check_fails(tmp_path, args):
    done = handformer(*args, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []


def test_resume_with_no_epoch_left_still_writes_save(tmp_path):
    assert handformer("train", "--epochs", "2", "--quiet", "--save", "c.ckpt",
                      cwd=tmp_path).returncode == 0
    done = handformer("train", "--resume", "c.ckpt", "--save", "new.ckpt", "--quiet",
                      cwd=tmp_path)
    assert done.returncode == 0 and "saved new.ckpt" in done.stdout, done.stderr
    assert handformer("evaluate", "--checkpoint", "new.ckpt", cwd=tmp_path).returncode == 0


def test_a_temporary_left_by_kill_9_is_removed_by_the_next_run(tmp_path):
    """kill -9 while the checkpoint is being written (caught by watching for the temporary
    file); the next run in that folder removes it."""
    for _attempt in range(5):  # the kill may land after the rename: then try again
        with running(*LONG_TRAIN, "--save", "c.ckpt", cwd=tmp_path) as proc:
            seen = wait_for(lambda: temporaries(tmp_path), 60, "a temporary file")
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=60)
        if set(seen) <= set(temporaries(tmp_path)):
            break
    else:
        pytest.fail("five kills all came after the rename")
    done = handformer("walk", "-o", "out.txt", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert temporaries(tmp_path) == []


def test_only_our_dead_temporaries_are_removed(tmp_path):
    dead = subprocess.Popen(["sleep", "60"])
    dead.kill()
    dead.wait()
    names = {"dead": f".out.txt.{dead.pid}.{'a' * 16}.hf-tmp",
             "live": f".out.txt.{os.getpid()}.{'b' * 16}.hf-tmp",
             "not ours": f".out.txt.tmp-{dead.pid}", "link": f".x.{dead.pid}.{'c' * 16}.hf-tmp"}
    for what, name in names.items():
        if what == "link":
            (tmp_path / name).symlink_to(tmp_path / "out.txt")
        else:
            (tmp_path / name).write_text(what)
    assert handformer("walk", "-o", "out.txt", cwd=tmp_path).returncode == 0
    left = {p.name for p in tmp_path.iterdir()}
    assert left == {"out.txt", *names.values()} - {names["dead"]}


def test_a_second_train_on_one_checkpoint_is_refused_with_the_holders_pid(tmp_path):
    with running(*LONG_TRAIN, "--save", "c.ckpt", cwd=tmp_path) as first:
        wait_for(lambda: (tmp_path / "c.ckpt").exists(), 120, "the first checkpoint")
        for args in (["train", "--epochs", "1", "--save", "c.ckpt"],
                     ["train", "--resume", "./c.ckpt"]):
            one_line(handformer(*args, cwd=tmp_path), f"pid {first.pid}", "c.ckpt")
        first.send_signal(signal.SIGINT)
        assert first.wait(timeout=120) == 130
    assert [p.name for p in tmp_path.iterdir()] == ["c.ckpt"]  # lock and temporaries gone
    assert handformer("train", "--epochs", "1", "--save", "c.ckpt", cwd=tmp_path).returncode == 0


def test_the_lock_of_a_killed_run_is_free(tmp_path):
    with running(*LONG_TRAIN, "--save", "c.ckpt", cwd=tmp_path) as first:
        wait_for(lambda: (tmp_path / "c.ckpt").exists(), 120, "the first checkpoint")
        first.kill()
        first.wait()
    done = handformer("train", "--epochs", "1", "--save", "c.ckpt", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("args, target", [
    (["walk", "-o", "disk/out"], "out"),
    (["walk", "--format", "svg", "--step", STEP, "-o", "disk/out"], "out"),
    (["walk", "--format", "png", "--step", STEP, "-o", "disk/out"], "out"),
    (["train", "--epochs", "1", "--quiet", "--plot", "disk/out.svg"], "out.svg"),
    (["train", "--epochs", "1", "--quiet", "--plot", "disk/out.png"], "out.png"),
    (["train", "--epochs", "1", "--quiet", "--save", "disk/out"], "out"),
], ids=["text", "svg", "png", "plot-svg", "plot-png", "checkpoint"])
def test_a_full_disk_keeps_the_old_file(tmp_path, args, target):
    unmount = small_tmpfs(tmp_path / "disk")
    try:
        old = tmp_path / "disk" / target
        old.write_text("the old file, whole")
        fill(tmp_path / "disk")
        done = handformer(*args, cwd=tmp_path)
        last = done.stderr.strip().splitlines()[-1]
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert last.startswith("error: ") and "no space left" in last, done.stderr
        assert old.read_text() == "the old file, whole"
        assert temporaries(tmp_path / "disk") == []
    finally:
        unmount()
