"""bugle.irtext (module-text reader), bugle.steensgaard and bugle.memory_model units."""
from __future__ import annotations

import pytest

from bugle import irtext
from bugle.irtext import ArrayT, CCast, CGep, CGlobal, CInt, FloatT, IntT, NamedT, PtrT, StructT, VectorT
from bugle.memory_model import ClassFacts, Layout, cell_bytes
from bugle.steensgaard import NULL, PointsTo

MODULE = """\
%struct.S = type { i8, i32, [2 x double] }
@_ZZ1kE4tile = internal addrspace(3) global [4 x [8 x float]] undef, align 4
@tbl = addrspace(2) constant [3 x i32] [i32 1, i32 2, i32 3], align 4

define dso_local spir_kernel void @k(ptr addrspace(1) %p) #0 !dbg !10 !kernel_arg_type !12 {
entry:
  %c = icmp samesign ult i32 1, 2, !dbg !11
  %g = getelementptr inbounds nuw [4 x [8 x float]], ptr addrspacecast (ptr addrspace(3) @_ZZ1kE4tile to ptr), i32 0, i32 1, !dbg !11
  store float 1.0, ptr getelementptr inbounds ([4 x [8 x float]], ptr addrspace(3) @_ZZ1kE4tile, i32 0, i32 2, i32 3), align 4
  %r = atomicrmw volatile add ptr addrspace(1) %p, i32 1 seq_cst, align 4
  %x = call spir_func i32 @_Z12get_local_idj(i32 noundef 0) #1, !dbg !11
  br label %"odd name"

"odd name":                                       ; preds = %entry
  ret void
}

!1 = !DIFile(filename: "k.cl", directory: "src")
!10 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 1, unit: !0)
!11 = !DILocation(line: 5, column: 7, scope: !13, inlinedAt: !14)
!12 = !{!"int*"}
!13 = distinct !DILexicalBlock(scope: !10, file: !1, line: 4, column: 3)
"""


def test_parse_types():
    assert irtext.parse_type("i32")[0] == IntT(32)
    assert irtext.parse_type("ptr addrspace(3)")[0] == PtrT(3)
    assert irtext.parse_type("[4 x [8 x float]]")[0] == ArrayT(4, ArrayT(8, FloatT(32, "float")))
    assert irtext.parse_type("<4 x i16>")[0] == VectorT(4, IntT(16))
    assert irtext.parse_type("{ i8, ptr, %struct.S }")[0] == StructT((IntT(8), PtrT(0), NamedT("struct.S")))
    assert irtext.parse_type("<{ i8, i32 }>")[0] == StructT((IntT(8), IntT(32)), True)
    with pytest.raises(irtext.IRTextError):
        irtext.parse_type("[4 y i32]")


def test_module_skeleton_and_alignment():
    mt = irtext.parse_module_text(MODULE)
    f = mt.functions["k"]
    assert f.cconv == "spir_kernel"
    assert [label for label, _ in f.blocks] == ["entry", "odd name"]
    insts = f.instructions()
    assert [i.opcode for i in insts] == ["icmp", "getelementptr", "store", "atomicrmw", "call", "br", "ret"]
    assert insts[0].result == "c" and insts[0].predicate() == "ult"
    assert insts[1].gep_source_type() == ArrayT(4, ArrayT(8, FloatT(32, "float")))
    assert insts[1].constexprs() == [CCast("addrspacecast", CGlobal("_ZZ1kE4tile"), PtrT(0))]
    gep = insts[2].constexprs()[0]
    assert isinstance(gep, CGep) and gep.base == CGlobal("_ZZ1kE4tile")
    assert [c for _, c in gep.indices] == [CInt(0, 32), CInt(2, 32), CInt(3, 32)]
    assert insts[3].atomic_op() == "atomicrmw add"
    assert insts[4].callee() == "_Z12get_local_idj"
    # locations follow the scope chain to the file; function attachments by kind
    assert mt.location(insts[0].dbg) == ("k.cl", 5, 7)
    assert mt.subprogram_name(f.attachment("dbg")) == "k"
    assert mt.string_tuple(f.attachment("kernel_arg_type")) == ["int*"]
    assert mt.structs["struct.S"] == StructT((IntT(8), IntT(32), ArrayT(2, FloatT(64, "double"))))
    g = mt.globals["_ZZ1kE4tile"]
    assert g.addrspace == 3 and g.initializer == "undef"
    assert mt.globals["tbl"].is_constant and mt.globals["tbl"].initializer.startswith("[i32 1")


def test_layout():
    mt = irtext.parse_module_text(MODULE)
    lay = Layout(32, mt.structs)
    s = NamedT("struct.S")
    assert lay.field_offsets(lay.resolve(s)) == [0, 4, 8]
    assert lay.size(s) == 24 and lay.align(s) == 8
    assert lay.alloc_size(VectorT(3, FloatT(32))) == 16
    steps = lay.gep_steps(s, 3, [0, 2, None])
    assert steps == [("scale", 24), ("field", 8), ("scale", 8)]


def test_cell_choice():
    assert cell_bytes(ClassFacts({4}, {4, 68}), None) == 4  # tile[y][x] with rows of 17 floats
    assert cell_bytes(ClassFacts({4}, {1}), None) == 1  # an i8 GEP with a variable index
    assert cell_bytes(ClassFacts({4, 1}, {4}), None) == 1  # mixed access widths
    assert cell_bytes(ClassFacts({4}, {6}), None) == 1  # misaligned constant offset
    assert cell_bytes(ClassFacts(), 2) == 2  # never accessed: declared element size


def test_points_to_unification():
    pt = PointsTo()
    for o in ("A", "B", "C"):
        pt.add_object(o)
    pt.add_object(NULL)
    pt.unify("p", "A")
    pt.unify("q", "B")
    pt.unify("phi", "p")
    pt.unify("phi", "q")  # a phi of pointers into A and B
    pt.unify("r", NULL)
    assert pt.targets("phi") == {"A", "B"} == pt.targets("p")
    assert pt.targets("C") == {"C"}
    assert pt.targets("r") == {NULL}
    assert pt.class_of("p") == pt.class_of("q") != pt.class_of("C")


def test_constant_values():
    from bugle.irtext import CAgg, CFloat, CUndef, CZero
    assert irtext.parse_typed_constant("<2 x float> splat (float 2.000000e+00)") == \
        CAgg((CFloat(0x40000000, 32), CFloat(0x40000000, 32)))
    assert irtext.parse_typed_constant("<3 x i8> <i8 1, i8 poison, i8 -1>") == \
        CAgg((CInt(1, 8), CUndef(True), CInt(255, 8)))
    # float constants that do not round-trip print as the double's bit pattern
    assert irtext.parse_typed_constant("float 0x3FB99999A0000000") == CFloat(0x3DCCCCCD, 32)
    assert irtext.parse_typed_constant("half 0xH3C00") == CFloat(0x3C00, 16)
    assert irtext.parse_typed_constant("{ i32, [2 x i8] } { i32 3, [2 x i8] c\"a\\00\" }") == \
        CAgg((CInt(3, 32), CAgg((CInt(97, 8), CInt(0, 8)))))
    assert irtext.parse_typed_constant("<4 x i32> zeroinitializer") == CZero()
    line = "  %s = shufflevector <4 x i32> %a, <4 x i32> %b, <3 x i32> <i32 7, i32 poison, i32 0>, !dbg !3"
    assert irtext.shuffle_mask(line) == [7, None, 0]


def test_inlined_at_and_paths():
    text = MODULE + """!20 = !DIFile(filename: "inc/h.h", directory: "/src")
!21 = distinct !DISubprogram(name: "f", scope: !20, file: !20, line: 1, unit: !0)
!22 = !DILocation(line: 3, column: 1, scope: !21, inlinedAt: !11)
"""
    mt = irtext.parse_module_text(text)
    assert mt.location_path(22) == "/src/inc/h.h" and mt.location(22) == ("inc/h.h", 3, 1)
    assert mt.inlined_at(22) == 11 and mt.inlined_at(11) == 14
