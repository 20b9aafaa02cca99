"""The BERT family's declarations: no switches of its own (a pretrained model folder brings
its sizes), and its own commands. A light module: the command line reads it at start-up."""

from __future__ import annotations

OPTIONS = ()

# The family's own commands: command → module of this folder (the command line's lazy map,
# registry.command_modules).
COMMANDS = {"embed": "commands", "similarity": "commands"}

# What this family adds to the shared flags' --help lines (registry.notes_for): flag → clause.
NOTES = {
    "pretrained": "a BERT-family folder, all-minilm-l6-v2",
    "beside_trained": "; with --pretrained all-minilm-l6-v2, the same model with random "
                      "initial weights (seed 0) beside the pretrained one",
    "exercises_pretrained": "a pretrained BERT-family model",
}
