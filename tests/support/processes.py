"""handformer run in a fresh interpreter, and what it imported."""

import ast

HEAVY = ("torch", "jinja2", "matplotlib", "rich")


def walk_in_a_fresh_process(*args: str) -> tuple[str, list[str]]:
    """Run `handformer ARGS` in a new interpreter: its stdout, and which of the heavy
    libraries (torch, jinja2, matplotlib, rich) it imported."""
    import subprocess
    import sys

    code = ("import sys\nfrom handformer.cli import main\n"
            f"try:\n    main({list(args)!r})\nexcept SystemExit as exit:\n"
            "    assert not exit.code, exit.code\n"
            f"print('HEAVY', sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, check=True)
    heavy = next(line for line in result.stderr.splitlines() if line.startswith("HEAVY "))
    return result.stdout, ast.literal_eval(heavy.removeprefix("HEAVY "))


def modules_after_a_walk(*args: str, env: dict | None = None) -> tuple[set[str], bool]:
    """Run `handformer ARGS` in a new interpreter (environment ``env``): every module it
    imported, and whether it read the Chinese word list (render/common/lexicon.words)."""
    import subprocess
    import sys

    code = ("import sys\nfrom handformer.cli import main\n"
            f"try:\n    main({list(args)!r})\nexcept SystemExit as exit:\n"
            "    assert not exit.code, exit.code\n"
            "lexicon = sys.modules.get('handformer.render.common.lexicon')\n"
            "read = bool(lexicon and lexicon.words.cache_info().currsize)\n"
            "print('MODULES', sorted(sys.modules), read, file=sys.stderr)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120, check=True, env=env)
    line = next(x for x in result.stderr.splitlines() if x.startswith("MODULES "))
    names, _, read = line.removeprefix("MODULES ").rpartition(" ")
    return set(ast.literal_eval(names)), read == "True"
