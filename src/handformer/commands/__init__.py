"""The CLI's commands, one module per concern; each module lists its click commands in COMMANDS."""

from . import pretrained, serve, train, verify, walk

COMMAND_MODULES = [walk, verify, train, pretrained, serve]
