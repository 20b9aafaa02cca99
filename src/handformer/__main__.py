"""`python -m handformer` is the `handformer` command (so `torchrun -m handformer ...` works)."""

from .cli import main

if __name__ == "__main__":
    main(prog_name="handformer")
