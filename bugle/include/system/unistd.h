/* unistd.h for bugle (POSIX): host declarations. */
#ifndef BUGLE_UNISTD_H
#define BUGLE_UNISTD_H
#include <sys/types.h>
extern "C" {
unsigned int sleep(unsigned int s);
int usleep(unsigned int us);
int getopt(int argc, char *const argv[], const char *opts);
extern char *optarg;
extern int optind;
long sysconf(int name);
}
#endif
