/* helper_functions.h for bugle: the CUDA samples' host helpers (declarations). */
#ifndef BUGLE_HELPER_FUNCTIONS_H
#define BUGLE_HELPER_FUNCTIONS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <helper_string.h>
#include <helper_timer.h>
bool sdkLoadPGM(const char *file, unsigned char **data, unsigned int *w, unsigned int *h);
bool sdkSavePGM(const char *file, unsigned char *data, unsigned int w, unsigned int h);
bool sdkLoadPPM4ub(const char *file, unsigned char **data, unsigned int *w, unsigned int *h);
bool sdkSavePPM4ub(const char *file, unsigned char *data, unsigned int w, unsigned int h);
bool sdkCompareL2fe(const float *ref, const float *data, const unsigned int len, const float epsilon);
#endif
