"""Invariant inference (the ``vcgen houdini`` stage): Houdini over the candidate invariants
(``houdini``), helped by refutation engines (``refutation``: SBASE, SSTEP, LU(1), DYN;
paper 003 sections 2.2 and 5)."""
