/*
 * The kernel's IIO exclusivity, modelled for devices faked by umockdev (which does not enforce it).
 *
 * Preload it before umockdev's preload, in every process that shares the fake device:
 *   LD_PRELOAD=libiio-exclusivity.so:libumockdev-preload.so.0
 * Each rule is the kernel's (docs/sensor-sharing.md cites the source; Tests/IIOExclusivity/test_model.py
 * checks each by itself):
 *
 * 1. One opener of /dev/iio:deviceN at a time. iio_chrdev_open() (drivers/iio/industrialio-core.c)
 *    does test_and_set_bit(IIO_BUSY_BIT_POS, ...) and returns -EBUSY when the bit is set;
 *    iio_chrdev_release() clears it when the file is released (its last descriptor closed). Here:
 *    an exclusive, non-blocking flock(2) on the opened node, which is also held per open file,
 *    shared across fork and dup, dropped at the last close, and seen by every process.
 *
 * 2. With IIO_EXCLUSIVITY_CLAIMS_DIRECT_MODE=1 (a driver whose read_raw calls
 *    iio_device_claim_direct_mode(), or checks iio_buffer_enabled(): st_accel, inv_mpu6050,
 *    st_lsm6dsx, kxcjk-1013, bmc150-accel, mxc4005, ...): a read of an in_accel_*_raw attribute
 *    fails with EBUSY while the device's buffer/enable is 1. The open succeeds, as in sysfs, where
 *    read_raw runs at read time. Without it (bmi160, whose read_raw reads the register at any
 *    time), raw reads always succeed.
 *
 * 3. Configuration writes while the buffer is enabled (drivers/iio/industrialio-buffer.c and
 *    industrialio-trigger.c; on unless IIO_EXCLUSIVITY_CONFIG_RULES=0):
 *    - scan_elements/<x>_en: EBUSY while enabled, whatever the value (iio_scan_el_store() and, for
 *      in_timestamp_en, iio_scan_el_ts_store(): iio_buffer_is_active() is checked first); a value
 *      that is not a boolean is EINVAL (kstrtobool);
 *    - buffer/length: a value equal to the current length succeeds; another is EBUSY while enabled
 *      (length_store(): "if (val == buffer->length) return len;" comes before the check);
 *    - buffer/watermark: 0 is EINVAL; otherwise EBUSY while enabled (watermark_store());
 *    - trigger/current_trigger: EBUSY while enabled with a trigger set (current_trigger_store()
 *      returns -EBUSY when currentmode == INDIO_BUFFER_TRIGGERED, the mode iio_verify_update() picks
 *      when a trigger is set; a buffer enabled without one runs the driver's FIFO and leaves it
 *      writable); a name that no trigger has clears it (iio_trigger_acquire_by_name() returns NULL);
 *    - buffer/enable=1 with no scan element enabled is EINVAL (iio_verify_update(): "At least one
 *      scan element must be enabled first"), and, with IIO_EXCLUSIVITY_NEEDS_TRIGGER=1 (a driver
 *      whose only buffer mode is INDIO_BUFFER_TRIGGERED), with current_trigger empty too
 *      ("Buffer not started: no trigger"); writing the state it already has succeeds (enable_store()).
 *    A write that succeeds replaces the value, as a sysfs store does, shown with a trailing newline
 *    (umockdev's attributes are plain files: opening them O_TRUNC, or writing a shorter value over a
 *    longer one, would otherwise leave an empty or mixed value behind), and opening an attribute
 *    that does not exist for writing fails (O_CREAT is dropped: sysfs makes no files). Every
 *    writable attribute under /sys gets that store behaviour.
 *
 * 4. Rate writes (sampling_frequency, in_accel_sampling_frequency): a value that is not a number is
 *    EINVAL (the IIO core parses it before the driver sees it); with IIO_EXCLUSIVITY_RATE_LISTED_ONLY=1
 *    a rate the *_available list does not have is EINVAL (st_sensors_set_odr(), bmc150_accel_set_bw(),
 *    kxcjk1013_set_odr(), bmi160_set_odr(), st_lsm6dsx_check_odr() look it up in their tables;
 *    inv_mpu6050_fifo_rate_store() takes any integer from 4 to 1000); with
 *    IIO_EXCLUSIVITY_RATE_CLAIMS_DIRECT_MODE=1 it is EBUSY while the buffer is enabled
 *    (st_lsm6dsx_write_raw() calls iio_device_claim_direct_mode(); the others write the rate at any time).
 *
 * 5. Per-read power-up sleeps: with IIO_EXCLUSIVITY_RAW_READ_PERIODS=N (a decimal), a read of an
 *    in_accel_*_raw attribute sleeps N periods of the device's sampling_frequency (or
 *    in_accel_sampling_frequency), read at read time, before it returns. st_sensors_read_info_raw()
 *    (drivers/iio/common/st_sensors/st_sensors_core.c, st_accel) enables the chip and
 *    msleep((bootime * 1000) / odr) with bootime 2 for every axis read; st_lsm6dsx_read_oneshot()
 *    (drivers/iio/imu/st_lsm6dsx/st_lsm6dsx_core.c) enables the sensor and usleep_range(3 * delay,
 *    4 * delay) with delay one period. The sleep happens once per read from offset 0, as read_raw
 *    runs once per sysfs read.
 *
 * Seen: open/openat/read/pread (and their _FORTIFY_SOURCE forms), write/pwrite, close,
 * copy_file_range and sendfile through the exported symbols (coreutils' cat reads with
 * copy_file_range when its output is a file), and fopen/fopen64 of the attributes above (the stream is then a fopencookie(3) stream over a descriptor that these
 * rules see): stdio's fread/fwrite/fprintf run on glibc's internal read and write, which no preload
 * sees, and both libiio (local_write_dev_attr: fopen, fwrite, fflush) and iio-sensor-proxy
 * (_write_sysfs_int, _write_sysfs_string: fopen, fprintf) write attributes that way. Not seen:
 * fdopen/freopen, splice, readv/writev, and the newer buffer0/ directory (libiio 0.24 and
 * iio-sensor-proxy use buffer/).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/sendfile.h>
#include <time.h>
#include <unistd.h>

int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);

#define TRACKED_FDS 4096
#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

/* What a descriptor is, for the rules. */
enum kind { RAW = 1, SCAN_ENABLE, LENGTH, WATERMARK, CURRENT_TRIGGER, BUFFER_ENABLE, RATE, OTHER_ATTRIBUTE };

struct tracked {
    enum kind kind;
    char device[]; /* the device's sysfs directory, with its trailing slash */
};

static _Atomic(struct tracked *) tracked[TRACKED_FDS];

static int flag(const char *name, int fallback)
{
    const char *value = getenv(name);
    return value && *value ? strcmp(value, "1") == 0 : fallback;
}

static double raw_read_periods(void)
{
    const char *value = getenv("IIO_EXCLUSIVITY_RAW_READ_PERIODS");
    double periods = value ? strtod(value, NULL) : 0;
    return periods > 0 ? periods : 0;
}

static int is_chrdev(const char *path)
{
    return path && strstr(path, "/dev/iio:device") != NULL;
}

/* The attribute `path` names, when a rule applies to it; `writing` for a descriptor opened to write. */
static struct tracked *classify(const char *path, int writing)
{
    if (!path) return NULL;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t length = strlen(base);
    enum kind kind = 0;
    const char *device_end = base; /* the device directory ends here (after its slash) */
    int reads_raw = flag("IIO_EXCLUSIVITY_CLAIMS_DIRECT_MODE", 0) || raw_read_periods() > 0;
    if (!writing && reads_raw && strncmp(base, "in_accel_", 9) == 0 && length >= 13 &&
        strcmp(base + length - 4, "_raw") == 0) {
        kind = RAW;
    } else if (writing && slash && slash > path) {
        const char *parent = slash - 1;
        while (parent > path && parent[-1] != '/') parent--;
        size_t parent_length = (size_t)(slash - parent);
        int rules = flag("IIO_EXCLUSIVITY_CONFIG_RULES", 1);
        device_end = parent;
        if (rules && parent_length == 13 && strncmp(parent, "scan_elements", 13) == 0 && length > 3 &&
            strcmp(base + length - 3, "_en") == 0) kind = SCAN_ENABLE;
        else if (rules && parent_length == 6 && strncmp(parent, "buffer", 6) == 0 && strcmp(base, "length") == 0)
            kind = LENGTH;
        else if (rules && parent_length == 6 && strncmp(parent, "buffer", 6) == 0 && strcmp(base, "watermark") == 0)
            kind = WATERMARK;
        else if (rules && parent_length == 6 && strncmp(parent, "buffer", 6) == 0 && strcmp(base, "enable") == 0)
            kind = BUFFER_ENABLE;
        else if (rules && parent_length == 7 && strncmp(parent, "trigger", 7) == 0 &&
                 strcmp(base, "current_trigger") == 0) kind = CURRENT_TRIGGER;
        else if (strcmp(base, "sampling_frequency") == 0 || strcmp(base, "in_accel_sampling_frequency") == 0) {
            kind = RATE;
            device_end = base;
        } else if (strncmp(path, "/sys/", 5) == 0 && strcmp(base, "uevent") != 0) {
            kind = OTHER_ATTRIBUTE;
            device_end = base;
        }
    }
    if (!kind) return NULL;
    size_t device_length = (size_t)(device_end - path);
    struct tracked *t = malloc(sizeof *t + device_length + 1);
    if (!t) return NULL;
    t->kind = kind;
    memcpy(t->device, path, device_length);
    t->device[device_length] = 0;
    return t;
}

static struct tracked *lookup(int fd)
{
    return fd >= 0 && fd < TRACKED_FDS ? atomic_load(&tracked[fd]) : NULL;
}

static void forget(int fd)
{
    if (fd >= 0 && fd < TRACKED_FDS) free(atomic_exchange(&tracked[fd], NULL));
}

static int writes(int flags)
{
    return (flags & O_ACCMODE) != O_RDONLY;
}

/* Applies the rules to a descriptor just opened: -1 with errno EBUSY when the node is taken. */
static int opened(int fd, const char *path, struct tracked *t)
{
    if (fd < 0) {
        free(t);
        return fd;
    }
    if (is_chrdev(path) && flock(fd, LOCK_EX | LOCK_NB) != 0) {
        NEXT(close)(fd);
        free(t);
        errno = EBUSY;
        return -1;
    }
    forget(fd);
    if (fd < TRACKED_FDS && t) free(atomic_exchange(&tracked[fd], t));
    else free(t);
    return fd;
}

/* Reads a small attribute of `device` into `text` (NUL-terminated); 0 when it can't. */
static int attribute(const char *device, const char *name, char *text, size_t size)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s%s", device, name) >= (int)sizeof path) return 0;
    int fd = NEXT(open)(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = NEXT(pread)(fd, text, size - 1, 0);
    NEXT(close)(fd);
    if (n < 0) return 0;
    text[n] = 0;
    return 1;
}

static int buffer_enabled(const char *device)
{
    char text[8];
    return attribute(device, "buffer/enable", text, sizeof text) && text[0] == '1';
}

/* kstrtobool's spellings (lib/kstrtox.c), enough for the values written here. */
static int boolean(const char *text, int *value)
{
    switch (text[0]) {
    case '1': case 'y': case 'Y': *value = 1; return 1;
    case '0': case 'n': case 'N': *value = 0; return 1;
    case 'o': case 'O': if (text[1] == 'n' || text[1] == 'N') { *value = 1; return 1; }
                        if (text[1] == 'f' || text[1] == 'F') { *value = 0; return 1; }
    }
    return 0;
}

static int unsigned_value(const char *text, unsigned long *value)
{
    char *end;
    errno = 0;
    *value = strtoul(text, &end, 10);
    return end != text && !errno && (*end == 0 || *end == '\n') && text[0] != '-';
}

static int any_scan_element_enabled(const char *device)
{
    char path[4096];
    snprintf(path, sizeof path, "%sscan_elements", device);
    DIR *directory = NEXT(opendir)(path);
    if (!directory) return 0;
    int found = 0;
    struct dirent *entry;
    char name[512], text[8];
    while (!found && (entry = NEXT(readdir)(directory))) {
        size_t length = strlen(entry->d_name);
        if (length < 4 || strcmp(entry->d_name + length - 3, "_en") != 0) continue;
        snprintf(name, sizeof name, "scan_elements/%s", entry->d_name);
        found = attribute(device, name, text, sizeof text) && text[0] == '1';
    }
    NEXT(closedir)(directory);
    return found;
}

/* Whether some trigger is called `name` (the kernel looks it up among registered triggers). */
static int trigger_exists(const char *name)
{
    DIR *directory = NEXT(opendir)("/sys/bus/iio/devices");
    if (!directory) return 0;
    int found = 0;
    struct dirent *entry;
    char path[512], text[256];
    while (!found && (entry = NEXT(readdir)(directory))) {
        if (strncmp(entry->d_name, "trigger", 7) != 0) continue;
        snprintf(path, sizeof path, "/sys/bus/iio/devices/%s/", entry->d_name);
        if (!attribute(path, "name", text, sizeof text)) continue;
        text[strcspn(text, "\n")] = 0;
        found = strcmp(text, name) == 0;
    }
    NEXT(closedir)(directory);
    return found;
}

/* A rate write: the IIO core parses the number first (iio_write_channel_info(), iio_str_to_fixpoint():
 * EINVAL), then the driver's write_raw claims direct mode or not (st_lsm6dsx_write_raw() does: EBUSY
 * while buffered) and looks the rate up in its table (EINVAL for one it does not list). */
static int rate_refusal(const struct tracked *t, const char *value)
{
    char *end;
    double rate = strtod(value, &end);
    if (end == value || (*end && *end != '\n') || !(rate >= 0)) return EINVAL;
    if (flag("IIO_EXCLUSIVITY_RATE_CLAIMS_DIRECT_MODE", 0) && buffer_enabled(t->device)) return EBUSY;
    if (!flag("IIO_EXCLUSIVITY_RATE_LISTED_ONLY", 0)) return 0;
    char list[1024];
    if (!attribute(t->device, "sampling_frequency_available", list, sizeof list) &&
        !attribute(t->device, "in_accel_sampling_frequency_available", list, sizeof list))
        return 0;
    for (char *at = list;;) {
        double listed = strtod(at, &end);
        if (end == at) return EINVAL;
        if (listed > 0 && rate > listed * (1 - 1e-6) && rate < listed * (1 + 1e-6)) return 0;
        at = end;
    }
}

/* 0 when a store of `value` to the attribute is allowed, else the errno the kernel returns. */
static int refusal(const struct tracked *t, const char *value)
{
    unsigned long number;
    int state;
    char text[64];
    switch (t->kind) {
    case SCAN_ENABLE:
        if (!boolean(value, &state)) return EINVAL;
        return buffer_enabled(t->device) ? EBUSY : 0;
    case LENGTH:
        if (!unsigned_value(value, &number)) return EINVAL;
        if (attribute(t->device, "buffer/length", text, sizeof text) && strtoul(text, NULL, 10) == number) return 0;
        return buffer_enabled(t->device) ? EBUSY : 0;
    case WATERMARK:
        if (!unsigned_value(value, &number) || number == 0) return EINVAL;
        return buffer_enabled(t->device) ? EBUSY : 0;
    case CURRENT_TRIGGER:
        /* Triggered mode is the one chosen when a trigger was set at enable (iio_verify_update()); a
         * FIFO enabled without one (bmc150-accel) leaves the trigger writable. */
        if (!buffer_enabled(t->device)) return 0;
        return attribute(t->device, "trigger/current_trigger", text, sizeof text) && text[0] && text[0] != '\n'
                   ? EBUSY
                   : 0;
    case RATE:
        return rate_refusal(t, value);
    case BUFFER_ENABLE:
        if (!boolean(value, &state)) return EINVAL;
        if (state == buffer_enabled(t->device) || !state) return 0;
        if (!any_scan_element_enabled(t->device)) return EINVAL;
        if (flag("IIO_EXCLUSIVITY_NEEDS_TRIGGER", 0) &&
            (!attribute(t->device, "trigger/current_trigger", text, sizeof text) || text[0] == '\n' || !text[0]))
            return EINVAL;
        return 0;
    default:
        return 0;
    }
}

/* A sysfs store: checked, then the attribute holds the value alone, newline-terminated. */
static ssize_t store(int fd, const struct tracked *t, const void *buffer, size_t count)
{
    char value[4096];
    size_t length = count < sizeof value - 2 ? count : sizeof value - 2;
    memcpy(value, buffer, length);
    value[length] = 0;
    int error = refusal(t, value);
    if (error) {
        errno = error;
        return -1;
    }
    if (t->kind == CURRENT_TRIGGER) {
        value[strcspn(value, "\n")] = 0;
        if (value[0] && !trigger_exists(value)) value[0] = 0;
        length = strlen(value);
    }
    if (length == 0 || value[length - 1] != '\n') value[length++] = '\n';
    if (ftruncate(fd, 0) != 0) return -1;
    ssize_t written = NEXT(pwrite)(fd, value, length, 0);
    return written < 0 ? -1 : (ssize_t)count;
}

/* For a raw attribute: -1 with errno EBUSY when the driver refuses the read now, else 0 after the
 * driver's power-up sleep. Only a read from offset 0 runs read_raw. */
static int raw_read(int fd, off_t offset)
{
    struct tracked *t = lookup(fd);
    if (!t || t->kind != RAW || offset != 0) return 0;
    if (flag("IIO_EXCLUSIVITY_CLAIMS_DIRECT_MODE", 0) && buffer_enabled(t->device)) {
        errno = EBUSY;
        return -1;
    }
    double periods = raw_read_periods();
    char text[64];
    if (periods > 0 && (attribute(t->device, "sampling_frequency", text, sizeof text) ||
                        attribute(t->device, "in_accel_sampling_frequency", text, sizeof text))) {
        double rate = strtod(text, NULL);
        if (rate > 0) {
            double seconds = periods / rate;
            struct timespec rest = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
            while (nanosleep(&rest, &rest) != 0 && errno == EINTR) {}
        }
    }
    return 0;
}

#define MODE_ARGUMENT(flags)                                                                                          \
    mode_t mode = 0;                                                                                                   \
    if ((flags) & (O_CREAT | O_TMPFILE)) {                                                                             \
        va_list ap;                                                                                                    \
        va_start(ap, flags);                                                                                           \
        mode = va_arg(ap, mode_t);                                                                                     \
        va_end(ap);                                                                                                    \
    }

/* The flags to open a descriptor with: a store target loses O_TRUNC, since a refused store must
 * leave the value as it was, and O_CREAT, since sysfs makes no files (umockdev's directory would). */
static int effective(const struct tracked *t, int flags)
{
    return t && t->kind != RAW ? flags & ~(O_TRUNC | O_CREAT) : flags;
}

int open(const char *path, int flags, ...)
{
    MODE_ARGUMENT(flags)
    struct tracked *t = classify(path, writes(flags));
    return opened(NEXT(open)(path, effective(t, flags), mode), path, t);
}

int open64(const char *path, int flags, ...)
{
    MODE_ARGUMENT(flags)
    struct tracked *t = classify(path, writes(flags));
    return opened(NEXT(open64)(path, effective(t, flags), mode), path, t);
}

int openat(int dirfd, const char *path, int flags, ...)
{
    MODE_ARGUMENT(flags)
    struct tracked *t = classify(path, writes(flags));
    return opened(NEXT(openat)(dirfd, path, effective(t, flags), mode), path, t);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
    MODE_ARGUMENT(flags)
    struct tracked *t = classify(path, writes(flags));
    return opened(NEXT(openat64)(dirfd, path, effective(t, flags), mode), path, t);
}

int __open_2(const char *path, int flags)
{
    struct tracked *t = classify(path, writes(flags));
    return opened(NEXT(__open_2)(path, effective(t, flags)), path, t);
}

int __open64_2(const char *path, int flags)
{
    struct tracked *t = classify(path, writes(flags));
    return opened(NEXT(__open64_2)(path, effective(t, flags)), path, t);
}

ssize_t read(int fd, void *buffer, size_t count)
{
    if (lookup(fd) && raw_read(fd, lseek(fd, 0, SEEK_CUR)) != 0) return -1;
    return NEXT(read)(fd, buffer, count);
}

ssize_t pread(int fd, void *buffer, size_t count, off_t offset)
{
    if (raw_read(fd, offset) != 0) return -1;
    return NEXT(pread)(fd, buffer, count, offset);
}

ssize_t pread64(int fd, void *buffer, size_t count, off64_t offset)
{
    if (raw_read(fd, offset) != 0) return -1;
    return NEXT(pread64)(fd, buffer, count, offset);
}

/* _FORTIFY_SOURCE's checked reads, for buffers whose size the compiler knows. */
ssize_t __read_chk(int fd, void *buffer, size_t count, size_t size);
ssize_t __pread_chk(int fd, void *buffer, size_t count, off_t offset, size_t size);
ssize_t __pread64_chk(int fd, void *buffer, size_t count, off64_t offset, size_t size);

ssize_t __read_chk(int fd, void *buffer, size_t count, size_t size)
{
    if (lookup(fd) && raw_read(fd, lseek(fd, 0, SEEK_CUR)) != 0) return -1;
    return NEXT(__read_chk)(fd, buffer, count, size);
}

ssize_t __pread_chk(int fd, void *buffer, size_t count, off_t offset, size_t size)
{
    if (raw_read(fd, offset) != 0) return -1;
    return NEXT(__pread_chk)(fd, buffer, count, offset, size);
}

ssize_t __pread64_chk(int fd, void *buffer, size_t count, off64_t offset, size_t size)
{
    if (raw_read(fd, offset) != 0) return -1;
    return NEXT(__pread64_chk)(fd, buffer, count, offset, size);
}

/* coreutils' cat copies a file to a file with copy_file_range(2), and others use sendfile(2): a read too. */
ssize_t copy_file_range(int in, off64_t *in_offset, int out, off64_t *out_offset, size_t count, unsigned flags)
{
    if (lookup(in) && raw_read(in, in_offset ? *in_offset : lseek(in, 0, SEEK_CUR)) != 0) return -1;
    return NEXT(copy_file_range)(in, in_offset, out, out_offset, count, flags);
}

ssize_t sendfile(int out, int in, off_t *offset, size_t count)
{
    if (lookup(in) && raw_read(in, offset ? *offset : lseek(in, 0, SEEK_CUR)) != 0) return -1;
    return NEXT(sendfile)(out, in, offset, count);
}

ssize_t sendfile64(int out, int in, off64_t *offset, size_t count)
{
    if (lookup(in) && raw_read(in, offset ? *offset : lseek(in, 0, SEEK_CUR)) != 0) return -1;
    return NEXT(sendfile64)(out, in, offset, count);
}

ssize_t write(int fd, const void *buffer, size_t count)
{
    struct tracked *t = lookup(fd);
    if (!t || t->kind == RAW) return NEXT(write)(fd, buffer, count);
    return store(fd, t, buffer, count);
}

ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset)
{
    struct tracked *t = lookup(fd);
    if (!t || t->kind == RAW) return NEXT(pwrite)(fd, buffer, count, offset);
    return store(fd, t, buffer, count);
}

ssize_t pwrite64(int fd, const void *buffer, size_t count, off64_t offset)
{
    struct tracked *t = lookup(fd);
    if (!t || t->kind == RAW) return NEXT(pwrite64)(fd, buffer, count, offset);
    return store(fd, t, buffer, count);
}

int close(int fd)
{
    forget(fd);
    return NEXT(close)(fd);
}

/* stdio over a tracked attribute: a fopencookie stream whose reads and writes go through the rules. */
static ssize_t cookie_read(void *cookie, char *buffer, size_t count)
{
    return read((int)(intptr_t)cookie, buffer, count);
}

static ssize_t cookie_write(void *cookie, const char *buffer, size_t count)
{
    ssize_t n = write((int)(intptr_t)cookie, buffer, count);
    return n < 0 ? 0 : n; /* fopencookie(3): 0 on error, errno kept */
}

static int cookie_seek(void *cookie, off64_t *offset, int whence)
{
    off64_t at = lseek64((int)(intptr_t)cookie, *offset, whence);
    if (at < 0) return -1;
    *offset = at;
    return 0;
}

static int cookie_close(void *cookie)
{
    return close((int)(intptr_t)cookie);
}

/* The streams made here. umockdev's fread, fwrite and fclose look at fileno(), which is -1 for them,
 * and so lose the errno a refused read or write set: they go straight to glibc's instead. */
#define STREAMS 64
static _Atomic(FILE *) streams[STREAMS];

static int ours(FILE *file)
{
    for (int i = 0; i < STREAMS; i++)
        if (file && atomic_load(&streams[i]) == file) return 1;
    return 0;
}

static void *libc_symbol(const char *name)
{
    static void *libc;
    if (!libc) libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    return libc ? dlsym(libc, name) : NULL;
}

size_t fread(void *buffer, size_t size, size_t count, FILE *file)
{
    size_t (*real)(void *, size_t, size_t, FILE *) = ours(file) ? libc_symbol("fread") : NULL;
    return (real ? real : NEXT(fread))(buffer, size, count, file);
}

size_t fwrite(const void *buffer, size_t size, size_t count, FILE *file)
{
    size_t (*real)(const void *, size_t, size_t, FILE *) = ours(file) ? libc_symbol("fwrite") : NULL;
    return (real ? real : NEXT(fwrite))(buffer, size, count, file);
}

int fclose(FILE *file)
{
    for (int i = 0; i < STREAMS; i++) {
        FILE *expected = file;
        if (file && atomic_compare_exchange_strong(&streams[i], &expected, NULL)) {
            int (*real)(FILE *) = libc_symbol("fclose");
            return (real ? real : NEXT(fclose))(file);
        }
    }
    return NEXT(fclose)(file);
}

static FILE *stream(FILE *(*real)(const char *, const char *), const char *path, const char *mode)
{
    int flags = mode[0] == 'r' ? O_RDONLY : O_WRONLY | O_CREAT | (mode[0] == 'a' ? O_APPEND : 0);
    if (strchr(mode, '+')) flags = (flags & ~O_ACCMODE) | O_RDWR;
    if (strchr(mode, 'e')) flags |= O_CLOEXEC;
    struct tracked *t = classify(path, writes(flags));
    if (!t) return real(path, mode);
    free(t);
    int fd = open(path, flags, 0666);
    if (fd < 0) return NULL;
    FILE *file = fopencookie((void *)(intptr_t)fd, mode, (cookie_io_functions_t){
        .read = cookie_read, .write = cookie_write, .seek = cookie_seek, .close = cookie_close});
    if (!file) {
        close(fd);
        return NULL;
    }
    for (int i = 0; i < STREAMS; i++) {
        FILE *empty = NULL;
        if (atomic_compare_exchange_strong(&streams[i], &empty, file)) break;
    }
    return file;
}

FILE *fopen(const char *path, const char *mode)
{
    return stream(NEXT(fopen), path, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
    return stream(NEXT(fopen64), path, mode);
}
