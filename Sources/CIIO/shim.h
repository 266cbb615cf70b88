// libiio (Analog Devices), plus the Linux descriptors the reading loop sleeps on
// (timerfd for polled reading, eventfd to wake it when the consumer leaves), which
// Glibc's Swift overlay does not export.
#ifndef SHAKED_CIIO_SHIM_H
#define SHAKED_CIIO_SHIM_H
#include <iio.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#endif
