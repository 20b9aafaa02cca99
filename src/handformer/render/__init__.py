"""The renderers: one module (or package) per format, each with render(tape, options), found
through registry.py."""
