"""The shared engine: the tape, formula helpers, the registered operations and the sublayers
every family builds from. Nothing here names a model family."""
