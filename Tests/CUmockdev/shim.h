// umockdev's testbed API (fake sysfs, /dev and uevents), for the IIO tests only.
#ifndef SHAKED_CUMOCKDEV_SHIM_H
#define SHAKED_CUMOCKDEV_SHIM_H
#include <umockdev.h>
#endif
