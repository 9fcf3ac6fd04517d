"""Solver back ends for a VC, one per module behind the ``backend.Backend`` protocol:
``inprocess`` (z3's Python API), ``process`` (any SMT-LIB2 solver process), ``portfolio``
(racing them), ``escalating`` (``--solver=auto``); ``select.make_backend`` picks one for a
``--solver`` value; ``smtlib`` writes the VC as SMT-LIB2 text; ``server`` serves cvc5 and
bitwuzla's Python APIs as SMT-LIB2 processes.  (Kept free of imports: ``server`` must
start fast.)"""
