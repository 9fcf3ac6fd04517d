/* bugle annotation language, shared by OpenCL and CUDA (docs/IL.md "Annotations").
   Calls to these external functions survive clang and become IL constructs in
   `bugle translate`; `__invariant` belongs in a loop condition:
     for (i = 0; __invariant(i <= n), i < n; i++) ...                              */
#ifndef BUGLE_ANNOTATIONS_H
#define BUGLE_ANNOTATIONS_H
#ifdef __cplusplus
#define BUGLE_DECL extern "C" __attribute__((device))
#else
#define BUGLE_DECL
#endif
BUGLE_DECL int __requires(bool expr);
BUGLE_DECL int __ensures(bool expr);
BUGLE_DECL int __assert(bool expr);
BUGLE_DECL int __assume(bool expr);
BUGLE_DECL int __invariant(bool expr);
BUGLE_DECL int __global_assert(bool expr);
BUGLE_DECL int __global_invariant(bool expr);
BUGLE_DECL int __global_requires(bool expr);
BUGLE_DECL int __global_ensures(bool expr);
#define __implies(a, b) (!(a) || (b))
#undef BUGLE_DECL
#endif
