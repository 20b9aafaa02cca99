"""The CLI's commands, one module per concern; each module lists its click commands in COMMANDS.

The modules are imported when one of their commands runs (or --help lists them all): `walk`
need not pay for train's, serve's or pretrained's imports. COMMAND_MODULES names, for each
command, the module that defines it.
"""

COMMAND_MODULES = {
    "walk": "walk", "render": "walk", "verify": "verify",
    "train": "train", "translate": "train", "evaluate": "evaluate",
    "embed": "pretrained", "similarity": "pretrained", "serve": "serve",
}
