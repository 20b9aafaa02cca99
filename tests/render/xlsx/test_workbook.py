"""`walk --format xlsx`: a workbook whose every computed cell is a formula, recomputed by
LibreOffice and checked against the engine's tape; an edited input moves the prediction."""

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from handformer.cli import main
from handformer.errors import HandformerError
from handformer.families.transformer.config import preset as make_preset
from handformer.families.transformer.run import run_forward, setup
from handformer.text import TUTORIAL_SRC, TUTORIAL_TGT

openpyxl = pytest.importorskip("openpyxl", reason="reading workbooks back needs openpyxl")
pytest.importorskip("xlsxwriter", reason="--format xlsx needs XlsxWriter (pip install -e '.[xlsx]')")

from handformer.render.xlsx.formulas import MASKED  # noqa: E402
from handformer.render.xlsx.layout import defined_name  # noqa: E402
from handformer.render.xlsx.workbook import render_xlsx  # noqa: E402
from support.paths import SUPPORT  # noqa: E402

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
needs_libreoffice = pytest.mark.skipif(
    SOFFICE is None, reason="LibreOffice is not installed (Debian: libreoffice-calc-nogui)")
RECALC_ALWAYS = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry"
 xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load">
<prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""
# Functions LibreOffice Calc, Google Sheets and pre-dynamic-array Excel all evaluate.
PORTABLE = {"MMULT", "SUMPRODUCT", "INDEX", "MATCH", "EXP", "LN", "SIN", "COS",
            "SQRT", "MAX", "AVERAGE", "VARP", "IF", "ROW", "COLUMN"}
CORPUS = "a cat sat on the mat.\nthe dog ate my homework.\n"
CONFIGS = {
    "tutorial": dict(preset="tutorial"),
    "paper-ffn-biases-2-heads-2-layers": dict(preset="small", d_model=8, heads=2, layers=2,
                                              d_ff=12),
    "odd-heads-own-corpus": dict(preset="tutorial", ffn="paper", d_ff=10, attn_bias=True,
                                 heads=2, decoder_heads=3, d_k=3, d_v=2, scale_embeddings=True,
                                 final_norm=True, encoder_layers=2, corpus=True,
                                 src="the cat sat on my homework", tgt="a dog ate the mat"),
    "pre-norm": dict(preset="tutorial", norm="pre", final_norm=True),
}


def make_setup(tmp_path, options):
    options = dict(options)
    corpus = None
    if options.pop("corpus", False):
        corpus = tmp_path / "corpus.txt"
        corpus.write_text(CORPUS, encoding="utf-8")
    sentences = {k: options.pop(k) for k in ("src", "tgt") if k in options}
    s = setup(make_preset(options.pop("preset"), **options), str(corpus) if corpus else None)
    return s, sentences.get("src", TUTORIAL_SRC), sentences.get("tgt", TUTORIAL_TGT)


def recompute(path: Path, work: Path) -> Path:
    """LibreOffice opens the workbook, recalculates every formula, and saves it again."""
    profile = work / "profile"
    (profile / "user").mkdir(parents=True, exist_ok=True)
    (profile / "user" / "registrymodifications.xcu").write_text(RECALC_ALWAYS)
    out = work / "recomputed"
    subprocess.run([SOFFICE, f"-env:UserInstallation={profile.as_uri()}", "--headless",
                    "--convert-to", "xlsx", "--outdir", str(out), str(path)],
                   check=True, timeout=300, capture_output=True)
    return out / path.name


def block_values(book, name: str) -> np.ndarray:
    (title, ref), = book.defined_names[name].destinations
    cells = book[title][ref.replace("$", "")]
    cells = cells if isinstance(cells, tuple) else ((cells,),)
    return np.array([[c.value for c in row] for row in cells], dtype=object)


def tape_blocks(tape) -> dict[str, np.ndarray]:
    """Every computed matrix of the tape by its workbook name (per-head views for heads)."""
    blocks = {}
    for step in tape.steps:
        value = np.asarray(step.value, dtype=float)
        if step.op == "input" or value.ndim == 3:
            continue
        blocks[defined_name(step.name)] = np.where(np.isneginf(value), MASKED, value)
    return blocks


def error_cells(book) -> list[str]:
    return [f"{s.title}!{c.coordinate}={c.value}" for s in book.worksheets for row in s.iter_rows()
            for c in row if isinstance(c.value, str) and re.match(r"#[A-Z/0]|Err:", c.value)]


def set_number(path: Path, out: Path, book, name: str, i: int, j: int, value: float) -> None:
    """Change one input number inside the .xlsx's XML, leaving every cached value stale."""
    (title, ref), = book.defined_names[name].destinations
    first = book[title][ref.replace("$", "").split(":")[0]]
    cell = first.offset(row=i, column=j).coordinate
    part = f"xl/worksheets/sheet{book.sheetnames.index(title) + 1}.xml"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == part:
                data, n = re.subn(rf'(<c r="{cell}"[^>]*><v>)[^<]*(</v>)'.encode(),
                                  rb"\g<1>" + repr(value).encode() + rb"\g<2>", data)
                assert n == 1, f"cell {cell} not found once in {part}"
            dst.writestr(item, data)


# --- the workbook as written (no spreadsheet engine needed) ---------------------------------


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory):
    s, src, tgt = make_setup(None, CONFIGS["tutorial"])
    tape = run_forward(s, src, tgt)
    path = tmp_path_factory.mktemp("xlsx") / "tutorial.xlsx"
    path.write_bytes(render_xlsx(tape, lang="en"))
    return tape, path


def test_blocks_are_named_after_their_steps(tutorial):
    tape, path = tutorial
    names = set(openpyxl.load_workbook(path).defined_names)
    assert {"generator_probs", "encoder_0_self_attn_head_0_scores", "src_embed_tok",
            "decoder_0_self_attn_head_1_masked", "src_embed_weight", "src_ids", "loss"} <= names
    assert set(tape_blocks(tape)) <= names
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["contents", "inputs", "encoder 0", "decoder 0", "prediction"]


def test_computed_cells_are_formulas_and_inputs_are_numbers(tutorial):
    tape, path = tutorial
    book = openpyxl.load_workbook(path)
    for name in tape_blocks(tape):
        cells = block_values(book, name).ravel()
        assert all(isinstance(c, str) and c.startswith("=") for c in cells), name
    for name in ("src_embed_weight", "encoder_0_self_attn_w_q", "src_ids", "generator_b"):
        assert all(isinstance(c, (int, float)) for c in block_values(book, name).ravel())


def test_formulas_use_only_portable_functions(tutorial):
    _, path = tutorial
    used = set()
    for sheet in openpyxl.load_workbook(path).worksheets:
        for row in sheet.iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    used |= set(re.findall(r"([A-Z][A-Z0-9.]*)\(", c.value))
    assert used and used <= PORTABLE, used - PORTABLE


def test_cached_values_are_the_tapes_numbers(tutorial):
    """A viewer that does not recalculate shows the engine's numbers."""
    tape, path = tutorial
    book = openpyxl.load_workbook(path, data_only=True)
    for name, want in tape_blocks(tape).items():
        got = block_values(book, name).astype(float)
        np.testing.assert_allclose(got, want.reshape(got.shape), rtol=0, atol=1e-12)


def test_narration_in_chinese_as_comments():
    s, src, tgt = make_setup(None, CONFIGS["tutorial"])
    book = openpyxl.load_workbook(__import__("io").BytesIO(
        render_xlsx(run_forward(s, src, tgt), lang="zh")))
    comments = [c.comment.text for sheet in book.worksheets for row in sheet.iter_rows()
                for c in row if c.comment]
    assert len(comments) > 40
    assert all(re.search(r"[\u4e00-\u9fff]", text) for text in comments)


def test_every_sentence_comes_from_the_language_table(tutorial):
    """A language added as a table (here English inside ⟦ ⟧) reaches the workbook's own text."""
    from handformer import i18n

    i18n.register("xx", {k: f"⟦{v}⟧" for k, v in i18n.table("en").items()})
    try:
        book = openpyxl.load_workbook(__import__("io").BytesIO(render_xlsx(tutorial[0], "xx")))
    finally:
        i18n.unregister("xx")
    contents = book["contents"]
    assert all(contents[cell].value.startswith("⟦") for cell in ("A1", "A2", "B4", "A6", "B6"))
    shown = block_values(book, "src_embed_weight")  # the numbers stay numbers
    assert shown.shape == (25, 6)


def test_refuses_a_model_too_large_and_a_missing_output(tmp_path):
    runner = CliRunner()
    big = runner.invoke(main, ["walk", "--preset", "paper", "--format", "xlsx",
                               "-o", str(tmp_path / "big.xlsx")])
    assert big.exit_code == 2
    assert "at most 100,000" in big.output and "Traceback" not in big.output
    assert not (tmp_path / "big.xlsx").exists()
    no_file = runner.invoke(main, ["walk", "--format", "xlsx"])
    assert no_file.exit_code == 2 and "give -o FILE.xlsx" in no_file.output


def test_refuses_an_operation_it_has_no_formula_for(tutorial):
    tape, _ = tutorial
    step = tape.index["encoder.0.ffn.out"]
    step.op, old = "gelu", step.op
    try:
        with pytest.raises(HandformerError, match="'encoder.0.ffn.out' \\(op 'gelu'\\)"):
            render_xlsx(tape)
    finally:
        step.op = old


def test_missing_xlsxwriter_names_the_pip_command(tutorial, monkeypatch):
    monkeypatch.setitem(sys.modules, "xlsxwriter", None)
    with pytest.raises(HandformerError, match=r"pip install -e '\.\[xlsx\]'"):
        render_xlsx(tutorial[0])


def test_cli_writes_the_workbook(tmp_path):
    out = tmp_path / "walk.xlsx"
    result = CliRunner().invoke(main, ["walk", "--format", "xlsx", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "generator_probs" in openpyxl.load_workbook(out).defined_names


# --- recomputed by LibreOffice ---------------------------------------------------------------


@needs_libreoffice
@pytest.mark.libreoffice
@pytest.mark.parametrize("config", list(CONFIGS))
def test_libreoffice_recomputes_every_cell_to_the_tape(tmp_path, config):
    s, src, tgt = make_setup(tmp_path, CONFIGS[config])
    tape = run_forward(s, src, tgt)
    path = tmp_path / "walk.xlsx"
    path.write_bytes(render_xlsx(tape))
    book = openpyxl.load_workbook(recompute(path, tmp_path), data_only=True)
    assert error_cells(book) == []
    for name, want in tape_blocks(tape).items():
        got = block_values(book, name).astype(float)
        np.testing.assert_allclose(got, want.reshape(got.shape), rtol=0, atol=1e-9,
                                   err_msg=name)


@needs_libreoffice
@pytest.mark.libreoffice
@pytest.mark.parametrize("config", ["tutorial", "paper-ffn-biases-2-heads-2-layers"])
def test_changing_an_embedding_moves_the_prediction(tmp_path, config):
    s, src, tgt = make_setup(tmp_path, CONFIGS[config])
    before = run_forward(s, src, tgt)
    path, edited = tmp_path / "walk.xlsx", tmp_path / "edited.xlsx"
    path.write_bytes(render_xlsx(before))
    word = before.meta["src"]["ids"][1]
    new_value = float(s.params["src_embed.weight"][word, 0]) + 5.0
    set_number(path, edited, openpyxl.load_workbook(path), "src_embed_weight", word, 0, new_value)

    s.params = {**s.params, "src_embed.weight": s.params["src_embed.weight"].copy()}
    s.params["src_embed.weight"][word, 0] = new_value
    after = run_forward(s, src, tgt)  # the engine, run again on the changed weights

    book = openpyxl.load_workbook(recompute(edited, tmp_path), data_only=True)
    assert error_cells(book) == []
    probs = block_values(book, "generator_probs").astype(float)
    assert np.abs(after["generator.probs"] - before["generator.probs"]).max() > 1e-6
    np.testing.assert_allclose(probs, after["generator.probs"], rtol=0, atol=1e-9)
    vocab = after.meta["vocab"]
    predicted = [vocab[k] for k in after["generator.probs"].argmax(axis=1)]
    assert list(block_values(book, "generator_probs_argmax")[:, 0]) == predicted


def test_refuses_a_tape_read_back_from_json(tutorial, tmp_path):
    """A saved tape keeps no attributes (ε, scales, the mask): refused, not guessed."""
    saved = tmp_path / "tape.json"
    runner = CliRunner()
    assert runner.invoke(main, ["walk", "--format", "json", "-o", str(saved)]).exit_code == 0
    result = runner.invoke(main, ["render", str(saved), "--format", "xlsx",
                                  "-o", str(tmp_path / "walk.xlsx")])
    assert result.exit_code == 2
    assert "handformer walk --format xlsx" in result.output and "Traceback" not in result.output


def python_with_uno():
    """The system Python LibreOffice's `uno` module is installed for (Debian: python3-uno)."""
    python = shutil.which("python3", path="/usr/bin:/usr/local/bin")
    if SOFFICE is None or python is None:
        return None
    found = subprocess.run([python, "-c", "import uno"], capture_output=True, timeout=60)
    return python if found.returncode == 0 else None


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@needs_libreoffice
@pytest.mark.libreoffice
def test_a_learners_edit_in_libreoffice_moves_the_prediction(tmp_path):
    """Opened with LibreOffice's default settings, one embedding number typed in: the
    probabilities and predicted words LibreOffice shows are the engine's on the new weights."""
    python = python_with_uno()
    if python is None:
        pytest.skip("no Python with LibreOffice's uno module (Debian: python3-uno)")
    s, src, tgt = make_setup(tmp_path, CONFIGS["tutorial"])
    path = tmp_path / "walk.xlsx"
    before = run_forward(s, src, tgt)
    path.write_bytes(render_xlsx(before))
    word = s.vocab.tokens.index("when")
    script = SUPPORT / "uno_edit.py"
    done = subprocess.run([python, str(script), str(path), str(tmp_path / "profile"),
                           str(free_port()), "src_embed_weight", str(word), "0", "-3.0",
                           "generator_probs", "generator_probs_argmax"],
                          capture_output=True, text=True, timeout=300, check=True)
    shown = __import__("json").loads(done.stdout)

    s.params = {**s.params, "src_embed.weight": s.params["src_embed.weight"].copy()}
    s.params["src_embed.weight"][word, 0] = -3.0
    after = run_forward(s, src, tgt)
    np.testing.assert_allclose(shown["generator_probs"], after["generator.probs"], rtol=0,
                               atol=1e-9)
    vocab = after.meta["vocab"]
    predicted = [vocab[k] for k in after["generator.probs"].argmax(axis=1)]
    assert [row[0] for row in shown["generator_probs_argmax"]] == predicted
    # this edit was chosen because it changes a predicted word
    assert predicted != [vocab[k] for k in before["generator.probs"].argmax(axis=1)]
