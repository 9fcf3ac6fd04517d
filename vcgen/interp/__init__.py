"""A concrete interpreter of IL programs (``vcgen run``; the DYN refutation engine, paper 003
section 5): ``values`` (and ``bvops``) the values, ``compiler`` expressions and procedures
as closures, ``inputs`` the choice of inputs satisfying axioms and preconditions,
``interpreter`` the run with its backtracking search, ``trace`` what a run records, ``cli``
the ``vcgen run`` command."""
