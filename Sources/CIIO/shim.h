// libiio (Analog Devices)'s declarations, plus the Linux descriptors the reading loop sleeps on
// (timerfd for polled reading, eventfd to wake it when the consumer leaves, the epoll set it
// waits in), and naming its
// thread, which Glibc's Swift overlay does not export.
//
// The module links nothing: IIOSensors loads libiio with dlopen when it first opens a sensor's
// buffer (LibIIO.swift), so a daemon that idles with the sensor closed maps neither libiio nor
// the libraries it needs. Only iio.h's types and the function pointer types below are used.
#ifndef SHAKED_CIIO_SHIM_H
#define SHAKED_CIIO_SHIM_H
#include <iio.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/prctl.h>

/// Names the calling thread (as `ps -L` and `top -H` show it; at most 15 bytes are kept).
static inline int shaked_name_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

// The pointer type of each libiio function IIOSensors calls, `shaked_NAME_fn`, taken from iio.h's
// own prototype (`__typeof__` does not reference the symbol), so what dlsym returns is called
// with exactly the declared signature.
#define SHAKED_IIO_FUNCTION(name) typedef __typeof__(&name) shaked_##name##_fn

SHAKED_IIO_FUNCTION(iio_create_local_context);
SHAKED_IIO_FUNCTION(iio_context_set_timeout);
SHAKED_IIO_FUNCTION(iio_context_find_device);
SHAKED_IIO_FUNCTION(iio_context_destroy);
SHAKED_IIO_FUNCTION(iio_device_is_trigger);
SHAKED_IIO_FUNCTION(iio_device_set_trigger);
SHAKED_IIO_FUNCTION(iio_device_get_channels_count);
SHAKED_IIO_FUNCTION(iio_device_get_channel);
SHAKED_IIO_FUNCTION(iio_device_set_kernel_buffers_count);
SHAKED_IIO_FUNCTION(iio_device_create_buffer);
SHAKED_IIO_FUNCTION(iio_channel_is_scan_element);
SHAKED_IIO_FUNCTION(iio_channel_is_output);
SHAKED_IIO_FUNCTION(iio_channel_get_id);
SHAKED_IIO_FUNCTION(iio_channel_enable);
SHAKED_IIO_FUNCTION(iio_channel_disable);
SHAKED_IIO_FUNCTION(iio_buffer_set_blocking_mode);
SHAKED_IIO_FUNCTION(iio_buffer_get_poll_fd);
SHAKED_IIO_FUNCTION(iio_buffer_step);
SHAKED_IIO_FUNCTION(iio_buffer_destroy);

#undef SHAKED_IIO_FUNCTION
#endif
