"""Class "text" in the workbook (`--format xlsx`): words holding characters XML cannot carry
(ESC, \\x01, \\x08, NUL, U+FFFE, lone surrogates) and words longer than a cell holds.

Expected stand-ins come from the Unicode names (unicodedata.lookup), XML well-formedness from
Python's own parser (expat) on every part of the file, and reading back from openpyxl and
LibreOffice, none of which the writer uses.
"""

import io
import shutil
import subprocess
import unicodedata
import zipfile
from xml.etree import ElementTree

import pytest

from support.clirun import refused_unchanged, run

pytestmark = pytest.mark.process  # the console script, and LibreOffice, as a user runs them

openpyxl = pytest.importorskip("openpyxl", reason="reading workbooks back needs openpyxl")
pytest.importorskip("xlsxwriter", reason="--format xlsx needs XlsxWriter (pip install -e '.[xlsx]')")
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")

# word in the corpus → how the workbook must show it
HOSTILE = {
    "a\x1bb": "a" + unicodedata.lookup("SYMBOL FOR ESCAPE") + "b",
    "c\x01d": "c" + unicodedata.lookup("SYMBOL FOR START OF HEADING") + "d",
    "e\x08f": "e" + unicodedata.lookup("SYMBOL FOR BACKSPACE") + "f",
    "n\x00ul": "n" + unicodedata.lookup("SYMBOL FOR NULL") + "ul",
    "g\ufffeh": "g" + unicodedata.lookup("REPLACEMENT CHARACTER") + "h",
}


def _texts(book) -> set[str]:
    return {c.value for sheet in book for row in sheet.iter_rows() for c in row
            if isinstance(c.value, str)}


def _well_formed(data: bytes) -> None:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for name in z.namelist():
            if name.endswith((".xml", ".rels", ".vml")):
                ElementTree.fromstring(z.read(name))  # raises on an illegal character


def _walk_with_hostile_words(tmp_path):
    words = list(HOSTILE)  # the NUL word in the corpus only: no argument can hold a NUL
    (tmp_path / "c.txt").write_text("hello world " + " ".join(words) + "\n", encoding="utf-8")
    result = run("walk", "--corpus", "c.txt", "--src", "hello " + " ".join(words[:3]),
                 "--tgt", "world g\ufffeh", "--format", "xlsx", "-o", "w.xlsx", cwd=tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    return tmp_path / "w.xlsx"


def test_control_characters_are_shown_as_stand_ins_and_said_so(tmp_path):
    path = _walk_with_hostile_words(tmp_path)
    _well_formed(path.read_bytes())
    book = openpyxl.load_workbook(path)
    texts = _texts(book)
    for raw, shown in HOSTILE.items():
        assert shown in texts, shown  # a row label of the embedding table, at least
        assert not any(raw in t for t in texts)
    note = book["contents"]["B5"].value
    assert note.startswith("Note:") and "U+FFFE" in note


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed")
@pytest.mark.libreoffice
def test_libreoffice_opens_the_workbook(tmp_path):
    path = _walk_with_hostile_words(tmp_path)
    profile = tmp_path / "profile"
    subprocess.run([SOFFICE, f"-env:UserInstallation={profile.as_uri()}", "--headless",
                    "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76", "--outdir",
                    str(tmp_path / "out"), str(path)], check=True, timeout=300,
                   capture_output=True)
    contents = (tmp_path / "out" / "w.csv").read_text(encoding="utf-8")  # the first sheet
    assert HOSTILE["a\x1bb"] in contents and HOSTILE["g\ufffeh"] in contents
    assert "U+FFFE" in contents  # the note


def test_a_lone_surrogate_in_a_vocabulary_is_replaced(tmp_path):
    """A tape made in-process (a checkpoint's vocabulary can carry one)."""
    from handformer import api
    from handformer.render.xlsx import render_xlsx

    tape = api.walk()
    vocab = tape.meta["vocab"]
    vocab[-1] = "x\ud800y"
    data = render_xlsx(tape)
    _well_formed(data)
    texts = _texts(openpyxl.load_workbook(io.BytesIO(data)))
    assert "x" + unicodedata.lookup("REPLACEMENT CHARACTER") + "y" in texts


def test_a_word_longer_than_a_cell_is_refused(tmp_path):
    long_word = "a" * 40_000
    (tmp_path / "c.txt").write_text(f"hello world {long_word}\n", encoding="utf-8")
    refused_unchanged(tmp_path, "walk", "--corpus", "c.txt", "--src", "hello", "--tgt",
                      "world", "--format", "xlsx", "-o", "w.xlsx",
                      words=["40,000 characters", "32,767"])


def test_a_sentence_longer_than_a_cell_is_cut_visibly(tmp_path):
    """Two words that each fit make a contents line that does not: it ends in a mark."""
    a, b = "a" * 17_000, "b" * 17_000
    (tmp_path / "c.txt").write_text(f"hello world {a} {b}\n", encoding="utf-8")
    result = run("walk", "--corpus", "c.txt", "--src", f"{a} {b}", "--tgt", "world",
                 "--format", "xlsx", "-o", "w.xlsx", cwd=tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    book = openpyxl.load_workbook(tmp_path / "w.xlsx")
    line = book["contents"]["B2"].value
    assert len(line) == 32_767 and line.endswith("characters in all]")
    assert a in _texts(book)  # each word whole in its own cell
    assert "cut" in book["contents"]["B5"].value
