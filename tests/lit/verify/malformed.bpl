// A malformed IL file: every stage reading IL stops with exit code 5 and the parse
// error's file:line:column (line 14 below lacks the ':' before the type).
// RUN: rm -f %t.bpl %t.smt2
// RUN: %python %S/Inputs/expect_exit.py 5 %vcgen verify %s 2>&1 | %FileCheck %s
// RUN: %python %S/Inputs/expect_exit.py 5 %vcgen houdini %s -o %t.bpl 2>&1 | %FileCheck %s
// RUN: %python %S/Inputs/expect_exit.py 5 %vcgen smt %s -o %t.smt2 2>&1 | %FileCheck %s
// RUN: %python %S/Inputs/expect_exit.py 5 %vcgen lockstep --local_size=4 --num_groups=1 %s -o %t.bpl 2>&1 | %FileCheck %s
// RUN: not ls %t.bpl
// RUN: not ls %t.smt2
// CHECK: malformed.bpl:14:{{[0-9]+}}:
// CHECK-NOT: Traceback
const local_id_x$1: bv32;
const local_id_x$2: bv32;
var $$p bv32;
procedure {:kernel} $k()
{
  $entry:
    return;
}
