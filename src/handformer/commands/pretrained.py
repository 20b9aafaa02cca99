"""Commands of this concern; see the module that fills it."""

COMMANDS = []
