"""CUDA library calls that reach the translator as calls rather than as IR (the headers
``bugle/include/bugle_cuda_*.h`` reduce everything else to plain IR before bugle sees it).

* ``llvm.nvvm.texsurf.handle.internal.p1(@tex)``: clang's 64-bit handle of a texture or
  surface reference (a file-scope ``texture<T, dim, mode>`` variable).  bugle models a
  texture as a read-only array whose cells are an uninterpreted function of (handle,
  coordinates, ...) (``bugle_cuda_texture.h``), so a handle only has to tell textures
  apart: it is a constant, distinct per variable (``HANDLE_BASE`` + its index in order of
  first use; texture *objects* are kernel arguments, which may equal any of them -- that
  only allows more behaviours).
* ``vprintf(format, buffer)`` (what clang makes of device ``printf``): prints; it reads
  only the format string and the thread's own argument buffer, so it is dropped, and its
  result (the number of characters printed) is arbitrary.
* calls the headers emit for library features bugle does not model --
  ``__bugle_cuda_unsupported_surface_write`` (``surf2Dwrite`` ...),
  ``__bugle_cuda_unsupported_dynamic_tile_sync`` (``tiled_partition(parent, n).sync()``) --
  and inline PTX (``asm(...)``): a BugleError (exit 4) naming the construct and its line,
  never a silent skip (DESIGN.md section 4).
"""
from __future__ import annotations

import re

from vcgen import il

from . import BugleError

TEXTURE_HANDLE = re.compile(r"llvm\.nvvm\.texsurf\.handle\.internal\.")
HANDLE_BASE = 0x7e000000
PRINTF = "vprintf"
UNSUPPORTED = {
    "__bugle_cuda_unsupported_surface_write":
        "surface writes (surf*write) are not supported: bugle models surfaces as read-only",
    "__bugle_cuda_unsupported_dynamic_tile_sync":
        "sync() of a thread_group made by tiled_partition(parent, n) with a run-time tile size is "
        "not supported (use tiled_partition<N>(parent))",
}


class CudaLibrary:
    """The calls above, for the translator ``tr`` (bugle.translate.Translator)."""

    def __init__(self, tr):
        self.tr = tr
        self.handles: dict = {}  # texture/surface global name -> handle value

    def translate(self, inst, callee: str, args: list, loc) -> bool:
        """Emit one of the calls above; False for any other call."""
        if TEXTURE_HANDLE.match(callee):
            name = args[0].name
            if not name:
                raise BugleError("texture handle of something other than a texture variable", loc)
            handle = self.handles.setdefault(name, HANDLE_BASE + len(self.handles))
            self.tr.assign_result(inst, il.BvLit(handle, 64))
            return True
        if callee == PRINTF:
            if self.tr.result_type(inst) is not None:
                self.tr.assign_result(inst, self.tr.fresh(self.tr.il_type(self.tr.result_type(inst), loc)))
            return True
        if callee in UNSUPPORTED:
            raise BugleError(UNSUPPORTED[callee], loc)
        return False


def inline_asm_error(it, loc) -> BugleError:
    """The error for a call of inline assembly (``asm("...")`` in CUDA: PTX), quoting the
    assembly text from the instruction ``it`` (irtext)."""
    m = re.search(r'\basm\s+(?:sideeffect\s+|alignstack\s+|inteldialect\s+|unwind\s+)*"((?:[^"\\]|\\.)*)"',
                  it.line)
    text = m.group(1) if m else "?"
    if len(text) > 60:
        text = text[:57] + "..."
    return BugleError(f'inline assembly (asm("{text}")) is not supported: bugle cannot read PTX; '
                      "write the operation in CUDA C++", loc)
