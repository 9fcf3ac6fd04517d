"""Ground-truth oracle for the verifier's soundness (issue 9, "guards").

``syntax``     the kernel AST (our own, independent of clang, bugle and the IL);
``generate``   seeded random kernels over that AST;
``source``     the AST printed as OpenCL C or CUDA source text;
``reference``  a concrete interpreter of the AST for every thread of a small launch,
               with barrier semantics, that reports the races, failing assertions and
               barrier divergence of the executions it runs (it under-approximates:
               whatever it reports is real);
``check``      runs ``gpuverify`` on the printed kernel and compares (``make fuzz``).

Nothing here is imported by the product packages.
"""
