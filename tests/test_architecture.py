"""The shape of the house, checked: no import cycle, lower layers never import upper ones, a
family's code reached only through the registry, every operation registered explicitly."""

import ast

import numpy as np
import pytest

from handformer.engine import ops
from handformer.engine.tape import Tape
from handformer.errors import HandformerError
from support.imports import SRC, cycles, graph, modules

PACKAGE = "handformer"


def every_import(name: str) -> set[str]:
    """What a module imports anywhere (module level or inside a function), absolute."""
    path = modules()[name]
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            found |= {target} | {f"{target}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return found


def under(prefix: str) -> list[str]:
    return [m for m in modules() if m == prefix or m.startswith(prefix + ".")]


def test_no_import_cycle_among_the_modules():
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_a_planted_cycle():
    edges = graph()
    edges["handformer.config_rules"] = edges["handformer.config_rules"] | {"handformer.limits"}
    edges["handformer.limits"] = edges["handformer.limits"] | {"handformer.config_rules"}
    assert ["handformer.config_rules", "handformer.limits"] in cycles(edges)


SHARED_LAYERS = ["handformer.engine", "handformer.narrate", "handformer.render", "handformer.files",
                 "handformer.errors", "handformer.train", "handformer.interop",
                 "handformer.commands", "handformer.server", "handformer.cli"]


@pytest.mark.parametrize("layer", SHARED_LAYERS)
def test_shared_layers_never_import_a_family(layer):
    """Only the registry names families; the engine, narration, renderers, file formats,
    training, interop, commands, server and command line find a family through it
    (families.registry is allowed, families.<name> is not), at module level or inside a
    function."""
    for module in under(layer):
        family_imports = {i for i in every_import(module)
                          if i.startswith("handformer.families.")
                          and not i.startswith("handformer.families.registry")}
        assert family_imports == set(), module


def test_nothing_outside_families_imports_a_family():
    """The widest fence: no module outside families/ (the ones above and the top-level ones,
    api, pipeline, exercises, …) imports a family's module, nor names one for importlib (the
    command line's lazy map takes a family's commands from its options.py, through the
    registry)."""
    for module, path in modules().items():
        if module.startswith("handformer.families"):
            continue
        assert not {i for i in every_import(module) if i.startswith("handformer.families.")
                    and not i.startswith("handformer.families.registry")}, module
        strings = {n.value for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                   if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        assert not {t for t in strings if t.startswith(("families.", "handformer.families."))
                    and not t.endswith(".registry")}, module


def test_a_familys_config_and_declarations_are_reached_through_the_registry_alone():
    """The encoder-decoder's config is its folder's (families/transformer/config.py), as the
    others' are; no module outside families/ imports a family's config or options (the command
    line's flags come from registry.size_options and declared, the public handformer.Config
    and preset, the server's presets and the training loop's config from the registry), and
    the rules configs share (config_rules) import no family."""
    found = modules()
    assert "handformer.config" not in found
    assert {f"handformer.families.{f}.config" for f in ("transformer", "gpt")} <= set(found)
    for module in found:
        if module.startswith("handformer.families."):
            continue
        reached = {i for i in every_import(module) if i.startswith("handformer.families.")
                   and i.split(".")[3:4] in (["config"], ["options"])}
        assert reached == set(), module
    assert not {i for i in every_import("handformer.config_rules")
                if i.startswith("handformer.families")}


def test_every_shared_layer_of_the_fence_exists():
    """A layer renamed away would leave its fence checking nothing."""
    assert all(under(layer) for layer in SHARED_LAYERS)


def test_families_never_import_each_other():
    from handformer.families.registry import BUILT_IN

    for family in BUILT_IN:
        others = {f"handformer.families.{f}" for f in BUILT_IN if f != family}
        for module in under(f"handformer.families.{family}"):
            assert not {i for i in every_import(module)
                        if any(i == o or i.startswith(o + ".") for o in others)}, module


def test_the_server_never_imports_narrate_or_a_private_name_of_a_renderer():
    for module in under("handformer.server"):
        for name in every_import(module):
            assert not name.startswith("handformer.narrate"), (module, name)
            if name.startswith("handformer.render."):
                assert not name.rsplit(".", 1)[1].startswith("_"), (module, name)


def test_errors_import_nothing():
    assert every_import("handformer.errors") <= {"__future__", "__future__.annotations"}


def test_every_module_opens_with_its_role():
    for path in modules().values():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if tree.body:
            assert ast.get_docstring(tree), f"{path.relative_to(SRC)} has no docstring"


def test_an_unregistered_operation_is_an_error_that_names_it():
    with pytest.raises(HandformerError, match="unknown operation 'gelu2'"):
        ops.get("gelu2")
    tape = Tape({})
    with pytest.raises(HandformerError, match="unknown operation 'nope'"):
        tape.run("y", "nope", [tape.constant("x", np.ones(2))])


def test_registering_an_operation_twice_is_refused():
    with pytest.raises(HandformerError, match="'relu' is registered twice"):
        ops.op("relu", lambda x: (x, None), "$out = $x", r"\dL{$x} = \dL{$out}")(
            lambda g, out, args, cache, attrs: (g,))


def test_every_operation_on_every_familys_tape_has_its_formulas(tape, backward_tape):
    """The tutorial's walk with its backward pass and a BERT-family block: each step's op is
    registered and has a forward and a gradient formula."""
    from handformer.families import registry

    bert = registry.get("bert")
    cfg = bert.config(vocab_size=7, d_model=4, heads=2, layers=1, d_ff=6, max_positions=8)
    rng = np.random.default_rng(0)
    small = Tape({n: rng.normal(size=s) for n, s in bert.param_shapes(cfg).items()})
    bert.forward(small, cfg, [2, 4, 3])
    for t in (backward_tape, small):
        for step in t.steps:
            if step.op != "input":
                assert ops.get(step.op).formula and ops.get(step.op).grad_formula, step.op
    assert {s.op for s in backward_tape.steps} >= {"embed", "positional", "layer_norm", "softmax"}
    assert {s.op for s in small.steps} >= {"gelu", "mean_pool", "l2_normalize"}


def test_no_package_names_a_function_like_one_of_its_modules():
    """Importing a submodule sets the package's attribute of that name: a function of the same
    name in the package's __init__ would be replaced by the module once the module is used."""
    found = modules()
    for name, path in found.items():
        if path.name != "__init__.py":
            continue
        defined = {n.name for n in ast.parse(path.read_text(encoding="utf-8")).body
                   if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        submodules = {m.rsplit(".", 1)[1] for m in found if "." in m and m.rsplit(".", 1)[0] == name}
        assert defined & submodules == set(), name


def test_every_import_of_our_own_modules_names_one_that_exists():
    """Deferred imports too (inside functions), which importing the module never runs."""
    known = modules()
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or
                                                     (node.module or "").startswith(PACKAGE)):
                parts = package.split(".")
                base = parts[: len(parts) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                assert target in known, f"{name} line {node.lineno} imports {target}"


def test_the_engine_never_imports_a_renderer():
    """A tape draws itself in Jupyter through ``Tape.html_hook``, which render.html sets; the
    engine names no renderer, at module level or inside a function."""
    for module in under("handformer.engine"):
        assert not {i for i in every_import(module) if i.startswith("handformer.render")}, module


def test_the_tape_is_drawn_for_jupyter_by_the_hook_render_registers():
    import handformer.render as render

    tape = Tape({})
    assert Tape.html_hook is render.notebook
    try:
        Tape.html_hook = lambda t: f"<p>{len(t.steps)} steps</p>"
        assert tape._repr_html_() == "<p>0 steps</p>"
        Tape.html_hook = None
        assert tape._repr_html_() is None
    finally:
        Tape.html_hook = render.notebook


def family_names_in(module: str) -> set[str]:
    from handformer.families.registry import BUILT_IN

    tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in BUILT_IN}


def test_shared_code_writes_no_family_name():
    """Outside families/, a family is reached through the registry (registry.DEFAULT for the
    one a run walks when it names none); its name is never written, so a family's folder and
    its registration are the whole of it (the server's, the CLI's and the narration's lists
    come from the registry)."""
    named = {m for m in modules() if not m.startswith("handformer.families.")
             and family_names_in(m)}
    assert named == set()


def test_the_server_and_the_narration_name_no_language():
    """The languages are the i18n tables' (a registered table is one too): the app's checks,
    the quiz's among them, read i18n.languages(); no code of the server, the narration or the
    renderers writes a language code, but as a parameter's default (English, i18n.FIRST)."""
    from handformer import i18n

    codes = set(i18n.languages())
    for layer in ("handformer.server", "handformer.narrate", "handformer.render"):
        for module in under(layer):
            tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
            defaults = {id(d) for f in ast.walk(tree)
                        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                        for d in [*f.args.defaults, *f.args.kw_defaults] if d is not None}
            written = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
                       and n.value in codes and id(n) not in defaults}
            assert written == set(), (module, written)


FAMILY_WORDS = ("gpt", "bert", "smollm2", "minilm", "encoder-decoder")
# Shared modules whose --help lines and messages take a family's words from its registration
# (registry.notes_for, registry.DEFAULT); the others still writing some are listed in the
# report of issue 42 (train's options, tokenize's bpe refusal, the workbook's refusal).
NAMELESS = ("handformer.cli", "handformer.commands.walk", "handformer.commands.verify",
            "handformer.commands.exercises", "handformer.interop.weights",
            "handformer.narrate.overview")


@pytest.mark.parametrize("module", NAMELESS)
def test_these_shared_modules_write_no_familys_name_in_their_prose(module):
    """Outside docstrings, no string of these modules names a family or its known models (an
    i18n key either: the overview's pre-norm label is arch.pre_norm, not gpt.arch.norm)."""
    tree = ast.parse(modules()[module].read_text(encoding="utf-8"))
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef))
                  and ast.get_docstring(n)}
    written = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
               and isinstance(n.value, str) and id(n) not in docstrings
               and any(w in n.value.lower() for w in FAMILY_WORDS)]
    assert written == [], module
