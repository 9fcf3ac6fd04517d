/* helper_string.h for bugle: command-line helpers of the CUDA samples (host code). */
#ifndef BUGLE_HELPER_STRING_H
#define BUGLE_HELPER_STRING_H
bool checkCmdLineFlag(const int argc, const char **argv, const char *flag);
int getCmdLineArgumentInt(const int argc, const char **argv, const char *flag);
float getCmdLineArgumentFloat(const int argc, const char **argv, const char *flag);
bool getCmdLineArgumentString(const int argc, const char **argv, const char *flag, char **value);
char *sdkFindFilePath(const char *file, const char *executable);
#endif
