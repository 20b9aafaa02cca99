"""The worksheet's formats: --no-key leaves no answer in the file; the HTML prints from Chromium
to PDF with the answer key on pages of its own, on A4 and on Letter; clear errors."""

import json
import re

import pytest
from click.testing import CliRunner

from handformer.cli import main


def run_cli(*argv, ok=True):
    result = CliRunner().invoke(main, [str(a) for a in argv])
    assert (result.exit_code == 0) == ok, result.output
    return result


def sheet_json(tmp_path, *options):
    run_cli("exercises", *options, "--format", "json", "-o", tmp_path / "key.json")
    return json.loads((tmp_path / "key.json").read_text(encoding="utf-8"))


def key_strings(tmp_path, *options):
    """Each answer as the key prints it, where the answer is not one of the given values (a
    ReLU of a positive number, an unmasked score: the answer is the given number itself)."""
    run_cli("exercises", *options, "--format", "markdown", "-o", tmp_path / "key.md")
    rows = (tmp_path / "key.md").read_text(encoding="utf-8").split("|---|---|---|---|")[1]
    answers = [line.split("|")[2].strip() for line in rows.strip().splitlines()]
    questions = sheet_json(tmp_path, *options)["questions"]
    shown = [{g["shown"] for g in q["given"]} for q in questions]
    assert len(answers) == len(questions) == 12
    return [a for a, given in zip(answers, shown, strict=True)
            if not any(a.rstrip("0").rstrip(".") in s for s in given)]


@pytest.mark.parametrize("fmt", ["html", "markdown", "json"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_key_leaves_no_answer_in_the_file(tmp_path, fmt, lang):
    options = ["--backward", "--seed", "5", "--lang", lang]
    answers = key_strings(tmp_path, *options)
    assert len(answers) >= 8
    run_cli("exercises", *options, "--format", fmt, "-o", tmp_path / "with", )
    run_cli("exercises", *options, "--format", fmt, "--no-key", "-o", tmp_path / "without")
    with_key = (tmp_path / "with").read_text(encoding="utf-8")
    without = (tmp_path / "without").read_text(encoding="utf-8")
    assert all(a in with_key for a in answers if fmt != "json")
    assert not [a for a in answers if a in without]
    if fmt == "json":
        questions = json.loads(without)["questions"]
        assert questions and not any("answer" in q for q in questions)
        assert all("answer" in q for q in json.loads(with_key)["questions"])
    if fmt == "html":
        assert 'id="key"' in with_key and 'id="key"' not in without


def test_a_seed_chooses_other_cells(tmp_path):
    cells = [[(q["step"], tuple(q["cell"])) for q in sheet_json(tmp_path, "--seed", s)["questions"]]
             for s in (1, 2)]
    assert cells[0] != cells[1]
    assert cells[0] == [(q["step"], tuple(q["cell"]))
                        for q in sheet_json(tmp_path, "--seed", 1)["questions"]]


@pytest.mark.parametrize("argv, said", [
    (["--kinds", "nonsense"], "unknown kind 'nonsense'"),
    (["--kinds", "grad_logit"], "add --backward"),
    (["--family", "gpt", "--kinds", "token_id,gelu"], "no step for questions of kind gelu"),
    (["--count", "0"], "--count"),
])
def test_clear_errors(argv, said):
    result = run_cli("exercises", *argv, ok=False)
    assert said in result.output and "Traceback" not in result.output


def test_the_weights_seed_is_the_walks_seed(tmp_path):
    sheet = sheet_json(tmp_path, "--weights-seed", "4", "--kinds", "logit")
    run_cli("walk", "--seed", "4", "--format", "json", "-o", tmp_path / "walk.json")
    walk = json.loads((tmp_path / "walk.json").read_text(encoding="utf-8"))
    logits = next(s for s in walk["steps"] if s["name"] == "generator.logits")["value"]
    q = sheet["questions"][0]
    assert q["answer"] == logits[q["cell"][0]][q["cell"][1]]


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


@pytest.mark.browser
@pytest.mark.parametrize("paper, width, height", [("a4", 595, 842), ("letter", 612, 792)])
def test_the_key_prints_on_pages_of_its_own(browser, tmp_path, paper, width, height):
    pages = {}
    for name, extra in (("with", []), ("without", ["--no-key"])):
        path = tmp_path / f"{name}.html"
        run_cli("exercises", "--backward", "--format", "html", "--paper", paper, *extra,
                "-o", path)
        page = browser.new_page()
        page.goto(path.as_uri())
        page.emulate_media(media="print")
        if name == "with":
            assert page.evaluate("getComputedStyle(document.getElementById('key')).breakBefore"
                                 ) == "page"
        pdf = page.pdf(prefer_css_page_size=True)
        pages[name] = pdf_pages(pdf)
        boxes = {tuple(round(float(v)) for v in box.split()[2:])
                 for box in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", pdf)}
        assert boxes == {(width, height)}  # the page size the worksheet's CSS asks (points)
        page.close()
    # the questions take the same pages either way; the key adds a page of its own
    assert pages["with"] == pages["without"] + 1


@pytest.mark.parametrize("lang, head_word", [("en", "head {}"), ("zh", "注意力头 {}")])
def test_heads_are_named_from_1_as_in_the_walkthrough(tmp_path, lang, head_word):
    """The walk calls the first head "head 1"; a question on cell [h, i, j] of an attention
    tensor names head h + 1 (the cell stays the tape's index)."""
    sheet = sheet_json(tmp_path, "--kinds", "score,softmax,weighted_sum", "--count", "12",
                       "--lang", lang)
    heads = {q["cell"][0] for q in sheet["questions"]}
    assert heads == {0, 1}  # the tutorial's decoder has two heads; both are asked about
    for q in sheet["questions"]:
        assert head_word.format(q["cell"][0] + 1) in q["question"], q


def test_a_hints_first_term_has_the_minus_sign_of_the_given_values():
    from handformer import pipeline
    from handformer.exercises import words
    from handformer.exercises.sheet import make_sheet

    tape = pipeline.run({"backward": True}).tape
    hints = [words.hint(q, "en") for q in make_sheet(tape, 40, seed=4)]
    negative = [h for h in hints if "−" in h]
    assert negative  # some first term is negative in 40 questions
    for h in hints:
        assert not re.search(r"(?<![\w.)])-\d", h), h
