/* stdbool.h for bugle: C++ has bool already. */
#ifndef BUGLE_STDBOOL_H
#define BUGLE_STDBOOL_H
#define __bool_true_false_are_defined 1
#endif
