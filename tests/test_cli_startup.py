"""The `handformer walk` start-up path: no torch, jinja2, matplotlib or rich imported, and
nothing the terminal walkthrough does not need (benchmarks/startup.py times it)."""

import os

import pytest

from support.processes import modules_after_a_walk, walk_in_a_fresh_process


@pytest.mark.process
@pytest.mark.parametrize("args,first_title", [
    (["walk", "--lang", "zh"], "第 1 步 · 全局概览：这里计算的模型"),  # the overview opens the walk
    (["walk", "--steps", "1"], "Step 2 · Define the dataset"),  # panel 2: the overview is 1
])
def test_walk_imports_no_heavy_module(args, first_title):
    out, heavy = walk_in_a_fresh_process(*args)
    assert heavy == []
    assert out.lstrip().startswith(first_title)


def test_each_command_is_found_in_the_module_that_defines_it():
    """command_modules() (the lazy map: the shared commands' and each family's options.py's)
    names, for every command, the module whose COMMANDS holds it, and misses none."""
    import importlib

    from handformer.commands import command_modules

    defined = {}
    for module in ("commands.walk", "commands.verify", "commands.train", "commands.translate",
                   "commands.evaluate",
                   "commands.serve", "commands.exercises", "families.bert.commands",
                   "families.gpt.commands"):
        commands = importlib.import_module(f"handformer.{module}").COMMANDS
        defined |= {command.name: module for command in commands}
    assert command_modules() == defined


@pytest.mark.process
def test_walk_imports_no_other_command_module():
    import subprocess
    import sys

    code = ("import sys\nfrom handformer.cli import main\n"
            "try:\n    main(['walk', '--steps', '1'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('handformer.commands.')),"
            " file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, check=True)
    assert result.stderr.splitlines()[-1] == "['handformer.commands.walk']"


# What a plain English walk of the encoder-decoder never needs: the other families (their
# models and narration), the other language's table, the narration of the backward pass,
# numpy.random (the initial weights are kept between runs: engine/initial_cache.py) and what
# it pulls in, the HTML, figure and file formats, pkgutil and string (the i18n tables are
# listed by file name; a placeholder is parsed only when a table is checked).
NOT_FOR_AN_ENGLISH_WALK = ("handformer.families.bert", "handformer.families.gpt",
                           "handformer.i18n.zh", "handformer.narrate.backward",
                           "handformer.narrate.grad_cell", "handformer.render.html",
                           "handformer.render.markdown", "handformer.files.tape_json",
                           "handformer.interop", "handformer.train", "numpy.random", "secrets",
                           "hashlib", "json", "jieba", "torch", "jinja2", "matplotlib", "rich",
                           "pkgutil", "string")


# A family's switches (families/<name>/options.py, a few declarations) are read by every
# command line to make its flags; the family itself is not.
DECLARATIONS = {"handformer.families.gpt.options", "handformer.families.bert.options"}


def imported(modules: set[str], names) -> list[str]:
    return sorted(m for m in modules - DECLARATIONS for name in names
                  if m == name or m.startswith(name + "."))


@pytest.mark.process
def test_an_english_walk_imports_only_what_it_draws(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    first, _ = modules_after_a_walk("walk", env=env)  # draws the weights and keeps them
    assert "numpy.random" in first  # the check below can see numpy.random
    modules, read_words = modules_after_a_walk("walk", env=env)
    assert imported(modules, NOT_FOR_AN_ENGLISH_WALK) == []
    assert "handformer.i18n.en" in modules and "handformer.families.transformer" in modules
    # English text holds no two Hanzi side by side, but for the first panel's credit of the
    # Chinese comic by its title (the word list is then read once, about 2 ms)
    assert read_words
    _, read_words = modules_after_a_walk("walk", "--steps", "1-13", env=env)
    assert not read_words


@pytest.mark.process
def test_a_chinese_walk_reads_the_word_list_and_not_the_english_table(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    modules, read_words = modules_after_a_walk("walk", "--lang", "zh", env=env)
    assert read_words
    assert imported(modules, ("handformer.i18n.en", "handformer.families.gpt",
                              "handformer.families.bert")) == []


# What a page never needs once its formulas are in the MathML cache: the formulas' allow-list
# with its XML tree (only for a formula converted now), and nothing of torch, matplotlib or the
# terminal's rich. (tempfile comes with jinja2's bytecode cache.)
NOT_FOR_A_PAGE = ("handformer.render.common.sanitize", "xml", "torch", "matplotlib", "rich")


@pytest.mark.process
def test_a_page_imports_no_converter_when_its_formulas_are_kept(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    page = str(tmp_path / "walk.html")
    first, _ = modules_after_a_walk("walk", "--format", "html", "-o", page, env=env)
    assert "handformer.render.common.sanitize" in first  # the check below can see it
    modules, _ = modules_after_a_walk("walk", "--format", "html", "-o", page, env=env)
    assert imported(modules, NOT_FOR_A_PAGE) == []
    assert "jinja2" in modules  # the page's templates (the check sees the page's imports)
