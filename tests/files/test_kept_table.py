"""files/kept_table: conversions kept between runs in one private file named by its sources'
stamp, the ones a run used first, never more than the file's size."""

import json
import os
import zlib

from handformer.files import kept_table
from handformer.files.kept_table import KeptTable


def table(tmp_path, monkeypatch, stamp="s1", file_chars=1000) -> KeptTable:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return KeptTable("t", lambda: stamp, limit=100, file_chars=file_chars)


def test_a_later_run_reads_what_an_earlier_one_kept(tmp_path, monkeypatch):
    first = table(tmp_path, monkeypatch)
    assert first.lookup("a") is None
    first.keep("a", "<b>A</b>")
    first.save()  # what the process does when it ends
    file = tmp_path / "handformer" / "t-s1.json"
    assert json.loads(file.read_text()) == {"a": "<b>A</b>"}
    assert os.stat(file).st_mode & 0o777 == 0o600
    assert table(tmp_path, monkeypatch).lookup("a") == "<b>A</b>"


def test_another_stamp_is_another_file(tmp_path, monkeypatch):
    first = table(tmp_path, monkeypatch)
    first.keep("a", "A")
    first.save()
    assert table(tmp_path, monkeypatch, stamp="s2").lookup("a") is None


def test_no_stamp_keeps_nothing_on_disk(tmp_path, monkeypatch):
    kept = table(tmp_path, monkeypatch, stamp=None)
    kept.keep("a", "A")
    assert kept.lookup("a") == "A"  # still remembered in this process
    kept.save()
    assert not (tmp_path / "handformer").exists()


def test_the_file_keeps_this_runs_conversions_first_and_fits_its_size(tmp_path, monkeypatch):
    first = table(tmp_path, monkeypatch, file_chars=30)
    for key in "abcd":
        first.keep(key, "x" * 9)  # 10 characters each: three fit
    first.save()
    second = table(tmp_path, monkeypatch, file_chars=30)
    assert second.lookup("c") == "x" * 9
    second.keep("e", "y" * 9)
    second.save()
    kept = json.loads((tmp_path / "handformer" / "t-s1.json").read_text())
    assert list(kept) == ["c", "e", "a"]  # used by the last run, then the file's order
    assert sum(len(k) + len(v) for k, v in kept.items()) <= 30


def test_a_file_others_may_write_or_not_a_table_is_ignored(tmp_path, monkeypatch):
    file = tmp_path / "handformer" / "t-s1.json"
    file.parent.mkdir()
    file.write_text(json.dumps({"a": "<script>planted</script>"}))
    os.chmod(file, 0o666)
    assert table(tmp_path, monkeypatch).lookup("a") is None
    os.chmod(file, 0o600)
    for text in ('["a"]', '{"a": 1}', "{not json"):
        file.write_text(text)
        assert table(tmp_path, monkeypatch).lookup("a") is None


def test_the_stamp_is_the_crc_and_length_of_the_sources_in_order(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    one.write_bytes(b"first")
    two.write_bytes(b"second part")
    crc = zlib.crc32(b"firstsecond part")  # one checksum over both, in turn
    assert kept_table.sources_stamp([one, two]) == f"{crc:08x}{16:08x}"
    assert kept_table.sources_stamp([two, one]) != kept_table.sources_stamp([one, two])
    assert kept_table.sources_stamp([one, tmp_path / "absent"]) is None
