"""io: files are written whole or not at all (a device given as output is written through),
and read as UTF-8 with errors that name the file."""

import os
import stat

import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.errors import HandformerError
from handformer.files.io import InputError, atomic_write, read_text


def test_dev_null_stays_a_device():
    result = CliRunner().invoke(main, ["walk", "--format", "json", "-o", os.devnull])
    assert result.exit_code == 0, result.output
    atomic_write(os.devnull, b"{}")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_replaces_a_regular_file_whole_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "out.json"
    target.write_bytes(b"old")
    atomic_write(target, b"new contents")
    assert target.read_bytes() == b"new contents"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


@pytest.mark.parametrize("where", ["folder", "missing"])
def test_a_folder_or_a_missing_folder_is_a_clear_error(tmp_path, where):
    path = tmp_path if where == "folder" else tmp_path / "nope" / "out.json"
    with pytest.raises(HandformerError, match="folder"):
        atomic_write(path, b"x")


def test_text_is_written_as_utf8(tmp_path):
    atomic_write(tmp_path / "zh.txt", "第 1 步 · −∞")
    assert (tmp_path / "zh.txt").read_bytes() == "第 1 步 · −∞".encode()


def test_the_reader_drops_a_byte_order_mark(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_bytes(b"\xef\xbb\xbfwhen you play\n")
    assert read_text(path) == "when you play\n"


@pytest.mark.parametrize("case", ["missing", "folder", "latin-1"])
def test_the_reader_names_the_file_and_what_it_is(tmp_path, case):
    path = {"missing": tmp_path / "nope.txt", "folder": tmp_path}.get(case, tmp_path / "l1.txt")
    if case == "latin-1":
        path.write_bytes("café".encode("latin-1"))
    expected = {"missing": f"corpus file '{path}' does not exist",
                "folder": f"cannot read corpus file '{path}': it is a folder",
                "latin-1": rf"corpus file '{path}' is not UTF-8 \(byte 3\)"}[case]
    with pytest.raises(InputError, match=expected):
        read_text(path, "corpus file")


def test_the_reader_raises_the_callers_error(tmp_path):
    from handformer.text import TextError, read_corpus

    with pytest.raises(TextError, match="corpus file .* does not exist"):
        read_corpus(tmp_path / "nope.txt")
