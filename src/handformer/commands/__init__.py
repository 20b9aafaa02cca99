"""The CLI's commands, one module per concern; each module lists its click commands in COMMANDS."""

from . import walk

COMMAND_MODULES = [walk]
