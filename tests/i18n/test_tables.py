"""Languages as data: the same keys and {placeholders} in every table, literal keys in the code,
the list of languages found from the tables (and a table registered at run time used)."""

import ast
import pkgutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from handformer import i18n
from handformer.cli import main

SRC = Path(i18n.__file__).parent.parent
STATIC = SRC / "server" / "static"


@pytest.mark.parametrize("lang", [code for code in i18n.languages() if code != i18n.FIRST])
def test_every_table_has_the_keys_and_placeholders_of_english(lang):
    assert i18n.differences(i18n.table(i18n.FIRST), i18n.table(lang)) == []


def test_a_missing_key_or_a_changed_placeholder_is_reported():
    en = i18n.table("en")
    broken = dict(en)
    del broken["dataset.title"]
    broken["vocab.p1"] = en["vocab.p1"].replace("{N}", "{n}")
    broken["decode.step.greedy"] = en["decode.step.greedy"].replace("{p:.3f}", "{p:.2f}")
    assert i18n.differences(en, broken) == ["dataset.title: in one table only",
                                           "vocab.p1: ['N'] vs ['n']"]


def test_languages_are_the_modules_of_the_package_english_first():
    modules = {m.name for m in pkgutil.iter_modules(i18n.__path__)}
    assert set(i18n.languages()) == modules and i18n.languages()[0] == "en"
    assert {"en", "zh"} <= modules


def test_a_registered_table_is_a_language_and_a_cli_choice():
    i18n.register("xx", {**i18n.table("en"), "dataset.title": "XX dataset"})
    try:
        assert i18n.languages()[-1] == "xx"
        out = CliRunner().invoke(main, ["walk", "--steps", "1", "--lang", "xx", "--width", "80"])
        assert out.exit_code == 0 and "Step 2 · XX dataset" in out.output
    finally:
        i18n.unregister("xx")
    out = CliRunner().invoke(main, ["walk", "--lang", "xx"])
    assert out.exit_code == 2 and "'xx' is not one of 'en', 'zh'" in out.output


def _key_arguments(tree):
    """The arguments that name a sentence: t(key), ctx.t(key), i18n.t(lang, key), t[key]."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and getattr(node.value, "id", "") == "t":
            yield node.slice
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name == "t":
            on_i18n = isinstance(func, ast.Attribute) and getattr(func.value, "id", "") == "i18n"
            yield from node.args[1:2] if on_i18n else node.args[:1]


def test_no_key_is_built_from_pieces():
    built = []
    sample = ast.parse('ctx.t(f"where.{kind}")\ni18n.t(lang, "a" + b)\nt[f"x.{y}"]\nctx.t("ok")')
    found = sorted(type(a).__name__ for a in _key_arguments(sample))  # the scan sees all four
    assert found == ["BinOp", "Constant", "JoinedStr", "JoinedStr"]
    for path in SRC.rglob("*.py"):
        for arg in _key_arguments(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(arg, (ast.JoinedStr, ast.BinOp)):
                built.append(f"{path.name}:{arg.lineno}")
    assert built == []


def test_every_key_is_written_out_where_it_is_used():
    literals = set()
    for path in SRC.rglob("*.py"):
        if path.parent.name != "i18n":
            literals |= {n.value for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                         if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    templates = "".join(p.read_text(encoding="utf-8") for folder in SRC.rglob("templates")
                        for p in folder.iterdir())
    unused = [key for key in i18n.table("en") if key not in literals
              and f"'{key}'" not in templates and f'"{key}"' not in templates
              and not _used_by_the_app(key, literals)]
    assert unused == []


def _used_by_the_app(key: str, literals: set[str]) -> bool:
    """The web app's words (``app.`` keys) reach the page without their prefix: its scripts
    say HF.t("title"), its server modules name error keys like "err.odd_d_model"."""
    if not key.startswith("app."):
        return False
    short = key[len("app."):]
    if short.startswith("opt.") and _a_declared_switch(short[len("opt."):]):
        return True
    scripts = "".join(p.read_text(encoding="utf-8") for p in STATIC.iterdir() if p.is_file())
    return short in literals or f'"{short}"' in scripts or f"'{short}'" in scripts


def _a_declared_switch(rest: str) -> bool:
    """The form's field for a switch a family declares (families/<name>/options.py) says
    app.opt.<name>, and its choices app.opt.<name>.<choice>: keys made from the declaration."""
    from handformer.families.registry import declared

    name, _, choice = rest.partition(".")
    found = declared().get(name)
    return found is not None and (not choice or choice in found[0].choices)


def test_an_unknown_language_is_a_one_line_error():
    from handformer.errors import HandformerError

    with pytest.raises(HandformerError, match="unknown language 'fr': choose one of en, zh"):
        i18n.table("fr")
