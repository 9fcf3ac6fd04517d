"""Analyses of one-thread IL kernels: the control-flow graph (``cfg``), the loop nest and
the loop-aware block order (``loops``), uniformity (``uniformity``) and the shared-state
abstraction chooser, the ``vcgen abstract`` stage (``abstraction``)."""
