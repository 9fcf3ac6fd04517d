// bugle translate: an image argument is a {:global} {:image} array of 128-bit pixels
// indexed by y ++ x; an integer-coordinate read is exact inside the image, a write exact;
// image sizes are uniform kernel parameters (positive); a sampler is its bv32 flag word.
// RUN: %bugle cc %s -o %t.ll
// RUN: %bugle translate %t.ll -o - | %FileCheck %s
// CHECK-DAG: var {:source_name "src"} {:global} {:elem_width 128} {:image "image2d_t", "read_only"} $$src: [bv64]bv128;
// CHECK-DAG: var {:source_name "dst"} {:global} {:elem_width 128} {:image "image2d_t", "write_only"} $$dst: [bv64]bv128;
// CHECK: {:source_params "src", "$$src", "image2d_t", "dst", "$$dst", "image2d_t"} $k($src$width: bv32, $src$height: bv32)
// CHECK-NEXT: modifies $$dst;
// CHECK-DAG: requires {:image_size} BV32_SGT($src$width, 0bv32);
// CHECK-DAG: requires {:image_size} BV32_SGT($src$height, 0bv32);
// CHECK: [[S:\$[a-z0-9.]+]] := 18bv32;
// CHECK: havoc [[ANY:\$image_any\$[0-9]+]];
// CHECK-NEXT: assume {:sourceloc "translate_image.cl", 25, 14} true;
// CHECK-NEXT: [[C:\$image_cell\$[0-9]+]] := $$src[if {{.*}}BV32_SLT([[X:\$[a-z0-9.$]+]], $src$width){{.*}}BV32_SLT([[Y:\$[a-z0-9.$]+]], $src$height){{.*}} then [[Y]] ++ [[X]] else [[ANY]]];
// CHECK-NEXT: {{.*}} := [[C]][32:0], [[C]][64:32], [[C]][96:64], [[C]][128:96];
// CHECK: assume {:sourceloc "translate_image.cl", 26, 3} true;
// CHECK-NEXT: $$dst[{{.*}} ++ {{.*}}] := {{.*}} ++ ({{.*}} ++ ({{.*}} ++ {{.*}}));
// CHECK: return;
__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                           CLK_FILTER_NEAREST;

__kernel void k(__read_only image2d_t src, __write_only image2d_t dst) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 v = read_imagef(src, smp, p);
  write_imagef(dst, p, v);
}
