"""Analyses of one-thread IL kernels: the control-flow graph (``cfg``), the loop nest and
the loop-aware block order (``loops``), uniformity (``uniformity``), the shared-state
abstraction chooser, the ``vcgen abstract`` stage (``abstraction``), and the scalars a
precondition pins to a literal (``pinned``)."""
