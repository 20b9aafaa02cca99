"""files/kept_table: conversions kept between runs in one private file named by its sources'
stamp, the ones a run used first (their own line, the only one a run that finds all it needs
there parses), never more than the file's size."""

import json
import os
import zlib

from handformer.files import kept_table
from handformer.files.kept_table import KeptTable


def table(tmp_path, monkeypatch, stamp="s1", file_chars=1000) -> KeptTable:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return KeptTable("t", lambda: stamp, limit=100, file_chars=file_chars)


def lines(file) -> list[dict]:
    return [json.loads(line) for line in file.read_text().split("\n")]


def test_a_later_run_reads_what_an_earlier_one_kept(tmp_path, monkeypatch):
    first = table(tmp_path, monkeypatch)
    assert first.lookup("a") is None
    first.keep("a", "<b>A</b>")
    first.save()  # what the process does when it ends
    file = tmp_path / "handformer" / "t-s1.jsonl"
    assert lines(file) == [{"a": "<b>A</b>"}, {}]  # this run's, then the others
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
    recent, older = lines(tmp_path / "handformer" / "t-s1.jsonl")
    assert (list(recent), list(older)) == (["c", "e"], ["a"])  # used last, then the file's order
    assert sum(len(k) + len(v) for k, v in {**recent, **older}.items()) <= 30


def file_of(tmp_path, text: str):
    file = tmp_path / "handformer" / "t-s1.jsonl"
    file.parent.mkdir(mode=0o700)
    file.write_text(text)
    os.chmod(file, 0o600)
    return file


def spy(monkeypatch) -> dict[str, list]:
    """What the table parses (each line's bytes) and the saves it asks for at exit."""
    seen = {"parsed": [], "saves": []}
    parse = kept_table.json.loads
    monkeypatch.setattr(kept_table.json, "loads", lambda b: seen["parsed"].append(b) or parse(b))
    monkeypatch.setattr(kept_table.atexit, "register", seen["saves"].append)
    return seen


def test_a_run_that_finds_all_it_needs_in_the_first_line_parses_no_other_and_writes_nothing(
        tmp_path, monkeypatch):
    file_of(tmp_path, '{"a": "A"}\n{"b": "B", "c": "C"}')
    seen = spy(monkeypatch)
    kept = table(tmp_path, monkeypatch)
    assert kept.lookup("a") == "A" and kept.lookup("a") == "A"
    assert seen == {"parsed": [b'{"a": "A"}'], "saves": []}
    assert kept.lookup("b") == "B"  # not in the first line: the second is parsed, once
    assert kept.lookup("c") == "C" and kept.lookup("x") is None
    assert seen["parsed"] == [b'{"a": "A"}', b'{"b": "B", "c": "C"}']
    assert seen["saves"] == [kept.save]  # so that next time "b" and "c" are in the first line


def test_what_a_run_found_in_the_second_line_is_in_the_first_next_time(tmp_path, monkeypatch):
    file = file_of(tmp_path, '{"a": "A"}\n{"b": "B"}')
    kept = table(tmp_path, monkeypatch)
    assert kept.lookup("b") == "B"
    kept.save()
    assert lines(file) == [{"b": "B"}, {"a": "A"}]


def test_a_file_of_one_line_is_read(tmp_path, monkeypatch):
    file_of(tmp_path, '{"a": "A", "b": "B"}')
    kept = table(tmp_path, monkeypatch)
    assert (kept.lookup("b"), kept.lookup("x")) == ("B", None)


def test_a_file_others_may_write_or_not_a_table_is_ignored(tmp_path, monkeypatch):
    file = tmp_path / "handformer" / "t-s1.jsonl"
    file.parent.mkdir()
    file.write_text(json.dumps({"a": "<script>planted</script>"}))
    os.chmod(file, 0o666)
    assert table(tmp_path, monkeypatch).lookup("a") is None
    os.chmod(file, 0o600)
    for text in ('["a"]', '{"a": 1}', "{not json"):
        file.write_text(text)
        assert table(tmp_path, monkeypatch).lookup("a") is None
    file.write_text('{"a": "A"}\n{not json')  # a broken second line: only it is lost
    kept = table(tmp_path, monkeypatch)
    assert (kept.lookup("b"), kept.lookup("a")) == (None, "A")


def test_the_stamp_is_the_crc_and_length_of_the_sources_in_order(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    one.write_bytes(b"first")
    two.write_bytes(b"second part")
    crc = zlib.crc32(b"firstsecond part")  # one checksum over both, in turn
    assert kept_table.sources_stamp([one, two]) == f"{crc:08x}{16:08x}"
    assert kept_table.sources_stamp([two, one]) != kept_table.sources_stamp([one, two])
    assert kept_table.sources_stamp([one, tmp_path / "absent"]) is None
