"""Files are written whole or not at all, and a device given as output is written through."""

import os
import stat

import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.config import HandformerError
from handformer.io import atomic_write


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
