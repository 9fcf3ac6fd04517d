"""OpenCL images and samplers (OpenCL 1.2 section 6.12.14) -> IL arrays and parameters.

An ``image1d_t`` / ``image2d_t`` / ``image3d_t`` kernel argument ``img`` is a global array
(docs/IL.md "Images")::

    var {:source_name "img"} {:global} {:elem_width 128} {:image "image2d_t", "read_only"}
        $$img: [bv64]bv128;

indexed by the pixel coordinates concatenated (1-D ``x``: bv32, 2-D ``y ++ x``: bv64, 3-D
``z ++ y ++ x``: bv96 -- concatenation is injective: distinct pixels are distinct cells),
one 128-bit cell per pixel holding the 4 components, component k in bits [32k, 32k+32)
(floats as uninterpreted bv32 like every float).  bugle.cc turns the image type into a
``ptr addrspace(1)``, so images flow through the points-to analysis like buffers.

* ``write_image{f,i,ui}(img, coord, color)``: a logged write ``$$img[y ++ x] := w ++ z ++ y ++ x``
  at exactly the coordinates (writing outside the image is undefined, 6.12.14.4);
* ``read_image{f,i,ui}(img, [sampler,] coord)``, integer coordinates: a logged read of the cell
  at the coordinates when they are inside the image (``0 <= c < size``), else of an arbitrary
  cell (clamp-to-edge, border colour, repeat, undefined: all covered).  Float coordinates:
  a read of an arbitrary cell (nothing relates float coordinates to pixels); its value is the
  cell's only for a sampler known to be ``CLK_FILTER_NEAREST``, else arbitrary (a linear filter
  blends several pixels; one arbitrary logged cell per read still covers every racing pair,
  since a race is a pair of one access of each thread);
* ``get_image_{width,height,depth,channel_order,channel_data_type}(img)``: fresh bv32 kernel
  parameters ``$img$width`` ... (uniform, usable in ``__requires``; sizes come with
  ``requires {:image_size} BV32_SGT($img$width, 0bv32);``); ``get_image_dim`` is
  ``(width, height)`` or ``(width, height, depth, 0)``.  Nothing relates the sizes to the
  launch: an unguarded read at the work item's own pixel may be out of the image, i.e.
  clamped onto another work item's pixel.

Samplers are their bv32 flag word (bugle.cc turns ``sampler_t`` into ``i32``): a ``sampler_t``
argument is a scalar kernel parameter and ``sampler_t s = CLK_...`` is clang's
``__translate_sampler_initializer(i32 flags)``, i.e. the constant.

Barriers: the IL barrier has one fence bit for global memory, buffers and images alike; see
``Images.global_fence`` for ``CLK_IMAGE_MEM_FENCE`` vs ``CLK_GLOBAL_MEM_FENCE``.

Errors (BugleError, exit 4, naming the builtin and line): image arrays, buffers, depth and
multisample images, ``read_imageh``/``write_imageh``, level-of-detail (mipmap) forms, any other
image builtin, a non-constant sampler initializer, a barrier fencing buffers but not images
(or the reverse) in a kernel writing both.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from vcgen import il

from . import BugleError
from .builtins import demangle_opencl
from .irtext import FloatT, IntT, VectorT
from .steensgaard import NULL

IMAGE_DIMS = {"image1d_t": 1, "image2d_t": 2, "image3d_t": 3}
READS = ("read_imagef", "read_imagei", "read_imageui")
WRITES = ("write_imagef", "write_imagei", "write_imageui")
QUERIES = {"get_image_width": "width", "get_image_height": "height", "get_image_depth": "depth",
           "get_image_channel_order": "channel_order",
           "get_image_channel_data_type": "channel_data_type"}
DIM_QUERY = "get_image_dim"
SAMPLER_INIT = "__translate_sampler_initializer"
FILTER_MASK, FILTER_NEAREST = 0x30, 0x10
CELL_BITS = 128
SIZES = ("width", "height", "depth")
# the image parameter of a mangled builtin: ``14ocl_image2d_ro`` -> ("image2d", "ro")
_MANGLED_IMAGE = re.compile(r"\d+ocl_(image\w*?)_(ro|wo|rw)")
_IMAGE_CTYPE = re.compile(r"image\w*_t$")


@dataclass(frozen=True)
class Image:
    """An image kernel argument: LLVM argument ``arg``, C type ``ctype`` (``image2d_t``),
    ``access`` (``read_only`` ...), ``dims`` (1..3, None when not modelled)."""
    arg: str
    ctype: str
    access: str
    dims: int | None


class Images:
    """Image arguments, builtins and samplers for the translator ``tr`` (bugle.translate)."""

    def __init__(self, tr):
        self.tr = tr
        self._by_key: dict | None = None  # array key -> Image, built on first use
        self._stems: dict = {}  # array key -> IL name stem of its parameters ("$img")
        self.used_params: dict = {}  # IL parameter name -> None (insertion-ordered set)
        self.samplers: dict = {}  # LLVM value name -> constant sampler flags
        self.reads = 0

    # ------------------------------------------------------------ arguments
    def by_key(self) -> dict[tuple[str, str], Image]:
        """``{("a", "arg:NAME"): Image}`` from ``kernel_arg_base_type`` /
        ``kernel_arg_access_qual`` metadata."""
        if self._by_key is None:
            tr = self.tr
            base = tr.mt.string_tuple(tr.ft.attachment("kernel_arg_base_type")) or tr.kernel_arg_types
            quals = tr.mt.string_tuple(tr.ft.attachment("kernel_arg_access_qual")) or []
            self._by_key = {}
            for idx, a in enumerate(tr.fn.arguments):
                ctype = (base[idx] if idx < len(base) else "").strip()
                if _IMAGE_CTYPE.match(ctype):
                    access = quals[idx] if idx < len(quals) else "read_only"
                    self._by_key[("a", "arg:" + a.name)] = Image(a.name, ctype, access,
                                                                 IMAGE_DIMS.get(ctype))
        return self._by_key

    def image(self, arr) -> Image | None:
        """The modelled image an IL array stands for, or None."""
        for key, img in self.by_key().items():
            if self.tr.arrays.get(key) is arr and img.dims is not None:
                return img
        return None

    def map_type(self, arr) -> il.MapType | None:
        """``[bv(32*dims)]bv128`` for an image array, None for other arrays."""
        img = self.image(arr)
        if img is None or img.dims is None:
            return None
        return il.MapType(il.BvType(32 * img.dims), il.BvType(CELL_BITS))

    def attrs(self, arr) -> il.Attrs | None:
        """Declaration attributes of an image array (None for other arrays)."""
        img = self.image(arr)
        if img is None:
            return None
        return (il.Attr("source_name", (arr.source_name,)), il.Attr("global"),
                il.Attr("elem_width", (il.IntLit(CELL_BITS),)), il.Attr("image", (img.ctype, img.access)))

    def params(self) -> list[tuple[str, il.Type]]:
        """The ``(name, bv32)`` kernel parameters of the image queries used."""
        return [(n, il.BV32) for n in self.used_params]

    def _param(self, key, what: str) -> il.Var:
        stem = self._stems.get(key)
        if stem is None:
            stem = self._stems[key] = self.tr.vname(key[1][len("arg:"):] or f"image{len(self._stems)}")
        name = f"{stem}${what}"
        if name not in self.used_params and what in SIZES:  # sizes are positive ints
            self.tr.requires.append(il.Spec("requires", self.tr.fns.bv("SGT", 32, il.Var(name), il.BvLit(0, 32)),
                                            attrs=(il.Attr("image_size"),)))
        self.used_params[name] = None
        return il.Var(name)

    def global_fence(self, flags: int, loc) -> bool:
        """The IL barrier's ``global_fence`` bit for OpenCL fence ``flags``: the IL fences
        buffers and images together, OpenCL separately (``CLK_GLOBAL_MEM_FENCE`` = 2,
        ``CLK_IMAGE_MEM_FENCE`` = 4).  With images written by the kernel a fence on one kind
        only is exact when there are no global buffers (the images' bit decides), else a
        BugleError: resetting the images' logs on a buffer fence would hide races."""
        glob, img = bool(flags & 2), bool(flags & 4)
        written = any(i.access != "read_only" and i.dims is not None for i in self.by_key().values())
        if glob == img or not written:
            return glob
        if not any(a.space == "global" and self.image(a) is None for a in self.tr.arrays.values()):
            return img
        raise BugleError("barrier fencing only one of global buffers and images (CLK_GLOBAL_MEM_FENCE "
                         "/ CLK_IMAGE_MEM_FENCE) in a kernel writing images and buffers is not supported", loc)

    # ------------------------------------------------------------ calls
    @staticmethod
    def claims(callee: str) -> bool:
        """Is ``callee`` an image builtin or the sampler initializer?"""
        return callee == SAMPLER_INIT or (callee.startswith("_Z") and (
            "ocl_image" in callee or demangle_opencl(callee) in ("read_imageh", "write_imageh")))

    def translate(self, inst, it, callee: str, args: list, loc) -> bool:
        """Emit an image builtin or sampler initializer call; False for other calls."""
        if not self.claims(callee):
            return False
        if callee == SAMPLER_INIT:
            flags = self.tr.const_int(args[0])
            if flags is None:
                raise BugleError("sampler initializer with non-constant flags is not supported", loc)
            self.samplers[inst.name] = flags
            self.tr.assign_result(inst, il.BvLit(flags, 32))
            return True
        base = demangle_opencl(callee)
        m = _MANGLED_IMAGE.search(callee)
        kind = m.group(1) if m else "?"
        if base not in READS + WRITES + tuple(QUERIES) + (DIM_QUERY,):
            raise BugleError(f"image builtin {base} is not supported", loc)
        if kind + "_t" not in IMAGE_DIMS:
            raise BugleError(f"{base} on {kind}_t is not supported (only image1d_t, image2d_t, "
                             "image3d_t are modelled)", loc)
        dims = IMAGE_DIMS[kind + "_t"]
        if base in READS:
            self._read(inst, it, base, dims, args, loc)
        elif base in WRITES:
            self._write(it, base, dims, args, loc)
        elif base == DIM_QUERY:
            sizes = [self._query(it, args[0], w, base, loc) for w in SIZES[:dims]]
            self.tr.assign_result(inst, tuple(sizes + [il.BvLit(0, 32)] * (dims == 3)))
        else:
            self.tr.assign_result(inst, self._query(it, args[0], QUERIES[base], base, loc))
        return True

    def pure_query(self, inst) -> il.Expr | None:
        """``get_image_width(img)`` ... of a kernel argument as its parameter (for
        ``__requires``, bugle.annotations); None for anything else."""
        ops = list(inst.operands)
        if not self.claims(ops[-1].name) or demangle_opencl(ops[-1].name) not in QUERIES:
            return None
        key = ("a", "arg:" + ops[0].name)
        if ops[0].value_kind.name != "argument" or key not in self.by_key():
            return None
        return self._param(key, QUERIES[demangle_opencl(ops[-1].name)])

    def _targets(self, v, it, base: str, loc) -> tuple:
        """(pointer, [(array key, Array)]) of an image operand; BugleError if it may be
        something other than a modelled image argument."""
        tr = self.tr
        p = tr.pointer(v, it)
        keys = tr.targets(p.cls)
        out = [(k, tr.arrays[k]) for k in keys if k != NULL]
        if len(out) != len(keys) or not out or any(self.image(a) is None for _, a in out):
            raise BugleError(f"{base} on an image that is not a kernel argument is not supported", loc)
        return p, out

    def _query(self, it, v, what: str, base: str, loc) -> il.Expr:
        """The (uniform) parameter ``$img$what`` of the image ``v`` (a case split on the
        pointer's base when it may be one of several images)."""
        p, arrays = self._targets(v, it, base, loc)
        e: il.Expr = self._param(arrays[-1][0], what)
        for key, a in reversed(arrays[:-1]):
            e = il.ite(il.BinOp("==", p.base, il.IntLit(a.ident)), self._param(key, what), e)
        return e

    def _coords(self, v, dims: int, base: str, loc) -> tuple:
        """(``[x, y, z][:dims]`` IL expressions, float coordinates?) of a coordinate operand."""
        t = self.tr.value_type(v)
        elem = t.elem if isinstance(t, VectorT) else t
        if not (isinstance(elem, IntT) and elem.width == 32) and not (
                isinstance(elem, FloatT) and elem.width == 32):
            raise BugleError(f"{base} with coordinates of type {t} is not supported", loc)
        e = self.tr.operand(v)
        comps = list(e) if isinstance(e, tuple) else [e]
        if len(comps) < dims:
            raise BugleError(f"{base} with {len(comps)} coordinates on a {dims}-D image", loc)
        return comps[:dims], isinstance(elem, FloatT)

    def _inside(self, key, coords: list) -> il.Expr:
        """``0 <= c < size`` for every coordinate (signed, as OpenCL ``int``)."""
        fns = self.tr.fns
        return il.and_all(il.BinOp("&&", fns.bv("SLE", 32, il.BvLit(0, 32), c),
                                   fns.bv("SLT", 32, c, self._param(key, w)))
                          for c, w in zip(coords, SIZES))

    def _read(self, inst, it, base: str, dims: int, args: list, loc) -> None:
        tr = self.tr
        if len(args) not in (2, 3):
            raise BugleError(f"{base} with a level of detail or gradients (mipmaps) is not supported", loc)
        sampler = args[1] if len(args) == 3 else None
        coords, floats = self._coords(args[-1], dims, base, loc)
        p, arrays = self._targets(args[0], it, base, loc)
        self.reads += 1
        anywhere = tr.local(f"$image_any${self.reads}", il.BvType(32 * dims))
        cell = tr.local(f"$image_cell${self.reads}", il.BvType(CELL_BITS))
        tr.emit(il.Havoc((anywhere.name,)))
        keys = {id(a): k for k, a in arrays}

        def make(arr, _offset):
            idx = anywhere if floats else il.ite(self._inside(keys[id(arr)], coords), pack(coords), anywhere)
            return [il.assign(cell.name, il.MapSelect(il.Var(arr.name), idx))]
        tr.access(p, None, loc, make)
        if floats and not self._nearest(sampler):
            comps = []
            for k in range(4):
                c = tr.local(f"$image_val${self.reads}${k}", il.BV32)
                tr.emit(il.Havoc((c.name,)))
                comps.append(c)
        else:
            comps = [il.BvExtract(cell, 32 * k + 32, 32 * k) for k in range(4)]
        tr.assign_result(inst, tuple(comps))

    def _nearest(self, sampler) -> bool:
        """Is the sampler operand known to use ``CLK_FILTER_NEAREST``?"""
        if sampler is None:
            return False
        flags = self.tr.const_int(sampler)
        if flags is None and sampler.value_kind.name == "instruction":
            flags = self.samplers.get(sampler.name)
        return flags is not None and flags & FILTER_MASK == FILTER_NEAREST

    def _write(self, it, base: str, dims: int, args: list, loc) -> None:
        tr = self.tr
        if len(args) != 3:
            raise BugleError(f"{base} with a level of detail (mipmaps) is not supported", loc)
        coords, floats = self._coords(args[1], dims, base, loc)
        if floats:
            raise BugleError(f"{base} with float coordinates is not supported", loc)
        color = tr.operand(args[2])
        if not isinstance(color, tuple) or len(color) != 4:
            raise BugleError(f"{base} of a value that is not a 4-component vector", loc)
        value = color[0]
        for c in color[1:]:
            value = il.BvConcat(c, value)
        p, _ = self._targets(args[0], it, base, loc)

        def make(arr, _offset):
            tr.written.add(arr.name)
            return [il.Assign((il.MapLhs(arr.name, pack(coords)),), (value,))]
        tr.access(p, None, loc, make)


def pack(coords: list) -> il.Expr:
    """The cell index of pixel ``coords`` (``[x, y, z]``): ``z ++ y ++ x`` (injective)."""
    e = coords[0]
    for c in coords[1:]:
        e = il.BvConcat(c, e)
    return e
