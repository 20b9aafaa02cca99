"""The CLI's commands, one module per concern; each module lists its click commands in COMMANDS.

The modules are imported when one of their commands runs (or --help lists them all): `walk`
need not pay for train's, serve's or embed's imports. COMMAND_MODULES names, for each shared
command, the module that defines it (inside handformer); a family's own commands live in its
folder, named by its options.py (``command_modules`` adds them, through the registry).
"""

COMMAND_MODULES = {
    "walk": "commands.walk", "render": "commands.walk", "verify": "commands.verify",
    "train": "commands.train", "translate": "commands.translate", "evaluate": "commands.evaluate",
    "serve": "commands.serve", "exercises": "commands.exercises",
}


def command_modules() -> dict[str, str]:
    """Every command → its module: the shared ones and each family's own."""
    from ..families.registry import command_modules as families

    return {**COMMAND_MODULES, **families()}
