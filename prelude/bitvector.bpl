// Bit-vector operations shared by every generated program (docs/IL.md).
// Declared here once at width 32; vcgen.il.prelude instantiates them at any width N by
// renaming BV32_ -> BVN_ and bv32 -> bvN.  The {:bvbuiltin} names are SMT-LIB's.
function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
function {:bvbuiltin "bvsub"} BV32_SUB(bv32, bv32): bv32;
function {:bvbuiltin "bvmul"} BV32_MUL(bv32, bv32): bv32;
function {:bvbuiltin "bvudiv"} BV32_UDIV(bv32, bv32): bv32;
function {:bvbuiltin "bvsdiv"} BV32_SDIV(bv32, bv32): bv32;
function {:bvbuiltin "bvurem"} BV32_UREM(bv32, bv32): bv32;
function {:bvbuiltin "bvsrem"} BV32_SREM(bv32, bv32): bv32;
function {:bvbuiltin "bvshl"} BV32_SHL(bv32, bv32): bv32;
function {:bvbuiltin "bvlshr"} BV32_LSHR(bv32, bv32): bv32;
function {:bvbuiltin "bvashr"} BV32_ASHR(bv32, bv32): bv32;
function {:bvbuiltin "bvand"} BV32_AND(bv32, bv32): bv32;
function {:bvbuiltin "bvor"} BV32_OR(bv32, bv32): bv32;
function {:bvbuiltin "bvxor"} BV32_XOR(bv32, bv32): bv32;
function {:bvbuiltin "bvnot"} BV32_NOT(bv32): bv32;
function {:bvbuiltin "bvneg"} BV32_NEG(bv32): bv32;
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32): bool;
function {:bvbuiltin "bvule"} BV32_ULE(bv32, bv32): bool;
function {:bvbuiltin "bvugt"} BV32_UGT(bv32, bv32): bool;
function {:bvbuiltin "bvuge"} BV32_UGE(bv32, bv32): bool;
function {:bvbuiltin "bvslt"} BV32_SLT(bv32, bv32): bool;
function {:bvbuiltin "bvsle"} BV32_SLE(bv32, bv32): bool;
function {:bvbuiltin "bvsgt"} BV32_SGT(bv32, bv32): bool;
function {:bvbuiltin "bvsge"} BV32_SGE(bv32, bv32): bool;
