// libiio (Analog Devices), plus the Linux descriptors the reading loop sleeps on
// (timerfd for polled reading, eventfd to wake it when the consumer leaves), and naming
// its thread, which Glibc's Swift overlay does not export.
#ifndef SHAKED_CIIO_SHIM_H
#define SHAKED_CIIO_SHIM_H
#include <iio.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/prctl.h>

/// Names the calling thread (as `ps -L` and `top -H` show it; at most 15 bytes are kept).
static inline int shaked_name_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
#endif
