"""The CLI's commands, one module per concern; each module lists its click commands in COMMANDS.

The modules are imported when one of their commands runs (or --help lists them all): `walk`
need not pay for train's, serve's or embed's imports. COMMAND_MODULES names, for each command,
the module that defines it (inside handformer): a family's own commands live in its folder.
"""

COMMAND_MODULES = {
    "walk": "commands.walk", "render": "commands.walk", "verify": "commands.verify",
    "train": "commands.train", "translate": "commands.translate", "evaluate": "commands.evaluate",
    "embed": "families.bert.commands", "similarity": "families.bert.commands",
    "generate": "families.gpt.commands", "serve": "commands.serve",
    "exercises": "commands.exercises",
}
