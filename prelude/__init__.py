"""Shared Boogie declarations (``*.bpl``), installed as the resource package
``vcgen.boogie_prelude`` (pyproject.toml maps this folder) and read by ``vcgen.prelude``
through ``importlib.resources``."""
