// libudev (systemd), for enumerating IIO devices and watching them come and go.
#ifndef SHAKED_CUDEV_SHIM_H
#define SHAKED_CUDEV_SHIM_H
#include <libudev.h>
#endif
