"""The IL package: everything every stage shares about the Boogie-subset IL (docs/IL.md).

``vcgen.il`` itself is the AST (``vcgen.il.ast``, re-exported here, so ``il.Assign``);
beside it: the grammar and ``parser``, the ``printer`` (``parse(print(p)) == p``),
``typecheck``, ``attributes`` (source locations), the shared ``prelude``, extra
declarations from ``boogie_file``, and what every stage command shares: ``errors`` (exit
codes), ``files`` (stage files), ``command`` (the error guard) and ``stage`` (the stage
contract).  The front end (``bugle``) depends on this package only.
"""
from .ast import *  # noqa: F401,F403  (the package namespace is the AST)
from .ast import __all__  # noqa: F401
