/*
 * The kernel's IIO exclusivity, modelled for devices faked by umockdev (which does not enforce it).
 *
 * Preload it before umockdev's preload, in every process that shares the fake device:
 *   LD_PRELOAD=libiio-exclusivity.so:libumockdev-preload.so.0
 * Two rules, each the kernel's (docs/sensor-sharing.md cites the source):
 *
 * 1. One opener of /dev/iio:deviceN at a time. iio_chrdev_open() (drivers/iio/industrialio-core.c)
 *    does test_and_set_bit(IIO_BUSY_BIT_POS, ...) and returns -EBUSY when the bit is set;
 *    iio_chrdev_release() clears it when the file is released (its last descriptor closed). Here:
 *    an exclusive, non-blocking flock(2) on the opened node, which is also held per open file,
 *    shared across fork and dup, dropped at the last close, and seen by every process.
 *
 * 2. With IIO_EXCLUSIVITY_CLAIMS_DIRECT_MODE=1 (a driver whose read_raw calls
 *    iio_device_claim_direct_mode(), or checks iio_buffer_enabled(): st_accel, inv_mpu6050,
 *    st_lsm6dsx, kxcjk-1013, mxc4005, ...): read(2) of an in_accel_*_raw attribute fails with
 *    EBUSY while the device's buffer/enable is 1. The open succeeds, as in sysfs, where read_raw
 *    runs at read time. Without the variable (bmi160, whose read_raw reads the register at any
 *    time), raw reads always succeed.
 *
 * Only open/read/pread/close through the exported symbols are seen: stdio's fread, which glibc
 * runs on its internal read, is not (no process under test reads raw attributes with stdio).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);

#define TRACKED_FDS 4096

/* For each descriptor of an in_accel_*_raw attribute: the path of its device's buffer/enable. */
static _Atomic(char *) raw_enable_path[TRACKED_FDS];

#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

static int is_chrdev(const char *path)
{
    return path && strstr(path, "/dev/iio:device") != NULL;
}

/* The buffer/enable beside `path` when it is an in_accel_*_raw attribute, else NULL. */
static char *enable_path_for(const char *path)
{
    static int claims = -1;
    if (claims < 0) {
        const char *value = getenv("IIO_EXCLUSIVITY_CLAIMS_DIRECT_MODE");
        claims = value && strcmp(value, "1") == 0;
    }
    if (!claims || !path) return NULL;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t length = strlen(base);
    if (strncmp(base, "in_accel_", 9) != 0 || length < 13 || strcmp(base + length - 4, "_raw") != 0) return NULL;
    size_t directory = (size_t)(base - path);
    char *enable = malloc(directory + sizeof("buffer/enable"));
    if (!enable) return NULL;
    memcpy(enable, path, directory);
    strcpy(enable + directory, "buffer/enable");
    return enable;
}

static void forget(int fd)
{
    if (fd >= 0 && fd < TRACKED_FDS) free(atomic_exchange(&raw_enable_path[fd], NULL));
}

/* Applies the rules to a descriptor just opened: -1 with errno EBUSY when the node is taken. */
static int opened(int fd, const char *path)
{
    if (fd < 0) return fd;
    if (is_chrdev(path) && flock(fd, LOCK_EX | LOCK_NB) != 0) {
        NEXT(close)(fd);
        errno = EBUSY;
        return -1;
    }
    forget(fd);
    if (fd < TRACKED_FDS) {
        char *enable = enable_path_for(path);
        if (enable) free(atomic_exchange(&raw_enable_path[fd], enable));
    }
    return fd;
}

static int buffer_enabled(const char *enable_path)
{
    int fd = NEXT(open)(enable_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char c = '0';
    ssize_t n = NEXT(read)(fd, &c, 1);
    NEXT(close)(fd);
    return n == 1 && c == '1';
}

/* True (errno EBUSY) when a read of `fd` is a raw read the driver refuses now. */
static int refused(int fd)
{
    if (fd < 0 || fd >= TRACKED_FDS) return 0;
    char *enable = atomic_load(&raw_enable_path[fd]);
    if (!enable || !buffer_enabled(enable)) return 0;
    errno = EBUSY;
    return 1;
}

#define MODE_ARGUMENT(flags)                                                                                          \
    mode_t mode = 0;                                                                                                   \
    if ((flags) & (O_CREAT | O_TMPFILE)) {                                                                             \
        va_list ap;                                                                                                    \
        va_start(ap, flags);                                                                                           \
        mode = va_arg(ap, mode_t);                                                                                     \
        va_end(ap);                                                                                                    \
    }

int open(const char *path, int flags, ...)
{
    MODE_ARGUMENT(flags)
    return opened(NEXT(open)(path, flags, mode), path);
}

int open64(const char *path, int flags, ...)
{
    MODE_ARGUMENT(flags)
    return opened(NEXT(open64)(path, flags, mode), path);
}

int openat(int dirfd, const char *path, int flags, ...)
{
    MODE_ARGUMENT(flags)
    return opened(NEXT(openat)(dirfd, path, flags, mode), path);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
    MODE_ARGUMENT(flags)
    return opened(NEXT(openat64)(dirfd, path, flags, mode), path);
}

int __open_2(const char *path, int flags)
{
    return opened(NEXT(__open_2)(path, flags), path);
}

int __open64_2(const char *path, int flags)
{
    return opened(NEXT(__open64_2)(path, flags), path);
}

ssize_t read(int fd, void *buffer, size_t count)
{
    if (refused(fd)) return -1;
    return NEXT(read)(fd, buffer, count);
}

ssize_t pread(int fd, void *buffer, size_t count, off_t offset)
{
    if (refused(fd)) return -1;
    return NEXT(pread)(fd, buffer, count, offset);
}

ssize_t pread64(int fd, void *buffer, size_t count, off64_t offset)
{
    if (refused(fd)) return -1;
    return NEXT(pread64)(fd, buffer, count, offset);
}

int close(int fd)
{
    forget(fd);
    return NEXT(close)(fd);
}
