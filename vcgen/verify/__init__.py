"""The final check (the ``vcgen verify`` stage): ``checker`` verifies a two-thread program
(Houdini first on the same solver when candidates remain, then every real assertion, then
vacuity) and ``counterexample`` reads each failure from the solver's model."""
