"""files/user_cache: the cache folder's files are read only when private, written whole."""

import os

from handformer.files import user_cache


def test_a_cache_file_lives_in_the_xdg_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert user_cache.path("x.json") == os.path.join(str(tmp_path), "handformer", "x.json")


def test_written_whole_private_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    file = user_cache.path("x.bin")
    user_cache.write(file, b"abc\n\x00")
    assert user_cache.read(file) == b"abc\n\x00"
    assert os.stat(file).st_mode & 0o777 == 0o600
    assert os.stat(os.path.dirname(file)).st_mode & 0o777 == 0o700
    assert os.listdir(os.path.dirname(file)) == ["x.bin"]  # no temporary file left


def test_a_file_others_may_write_is_not_read(tmp_path):
    file = tmp_path / "x.bin"
    file.write_bytes(b"planted")
    os.chmod(file, 0o666)
    assert user_cache.read(str(file)) is None
    os.chmod(file, 0o600)
    assert user_cache.read(str(file)) == b"planted"


def test_a_missing_file_or_an_unwritable_folder_is_no_error(tmp_path):
    assert user_cache.read(str(tmp_path / "absent")) is None
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder should be")
    user_cache.write(str(blocked / "handformer" / "x.bin"), b"data")  # skipped, no exception
    assert blocked.read_text() == "a file where the folder should be"


def test_a_cache_file_nested_past_the_parser_is_ignored(tmp_path, monkeypatch):
    from handformer.files import kept_table
    from handformer.render.html import kept_draws

    file = tmp_path / "deep.json"
    file.write_text("[" * 200_000)
    os.chmod(file, 0o600)
    assert kept_draws._read(str(file)) == []
    assert kept_table.read_table(str(file)) == {}


def test_a_fifo_or_a_file_past_the_size_is_not_read(tmp_path):
    fifo = tmp_path / "x.json"
    os.mkfifo(fifo, 0o600)
    assert user_cache.read(str(fifo)) is None  # returns at once: no writer is waited for
    big = tmp_path / "big.bin"
    with open(big, "wb") as f:
        f.truncate(user_cache.MAX_BYTES + 1)  # sparse: claims the size, holds no data
    os.chmod(big, 0o600)
    assert user_cache.read(str(big)) is None
    with open(big, "r+b") as f:
        f.truncate(user_cache.MAX_BYTES)
    assert len(user_cache.read(str(big))) == user_cache.MAX_BYTES
