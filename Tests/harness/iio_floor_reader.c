// The floor of scripts/bench-iio.sh: the least any reader of an IIO buffer must do, in C. It opens
// /dev/iio:device0 (under the same umockdev testbed as shakectl bench-iio), then waits in poll(2)
// and reads what is there with one read(2) per wake-up, for SECONDS after a one-second warm-up,
// and prints its own CPU time per second (getrusage, all threads: umockdev's preload runs in this
// process too) as one JSON line with the keys shakectl bench-iio uses. What shaked costs above this
// is shaked's; this much is the kernel's, the harness's and any reader's.
//
// With --reopen it reads as a reader sharing the node in time does: every 100 ms (a timer) it opens
// the node, reads what is there with one read(2) and closes it.
//
// With --every N it reads as a reader that lets the buffer gather N watermarks does (shaked's resting
// reader, N = 3, and its reader while nothing can be recognized, N = 2): the node open, every N × 100
// ms (a timer) one read(2) of what is there.
//
// With --poll RATE SYSPATH it reads as a poller does: RATE times a second (a timer) it opens, reads
// and closes SYSPATH/in_accel_{x,y,z}_raw and parses each value, the reads shaked's polled reader
// makes (the same sysfs files through umockdev's preload, and the kernel model when it is loaded).
//
//   iio-floor-reader SECONDS [--reopen | --every N | --poll RATE SYSPATH]
#include <fcntl.h>
#include <string.h>
#include <sys/timerfd.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double cpu_seconds(void) {
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6 + r.ru_stime.tv_sec + r.ru_stime.tv_usec / 1e6;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 0;
    if (seconds <= 0) {
        fprintf(stderr, "usage: iio-floor-reader SECONDS [--reopen | --every N | --poll RATE SYSPATH]\n");
        return 2;
    }
    int reopen = argc > 2 && strcmp(argv[2], "--reopen") == 0;
    int polling = argc > 4 && strcmp(argv[2], "--poll") == 0;
    int every = argc > 3 && strcmp(argv[2], "--every") == 0 ? atoi(argv[3]) : 0;
    if (argc > 2 && strcmp(argv[2], "--every") == 0 && (every < 1 || every > 8)) {
        fprintf(stderr, "iio-floor-reader: --every N must be 1 to 8 (the kernel's buffer holds 8 watermarks)\n");
        return 2;
    }
    double rate = polling ? atof(argv[3]) : every ? 10.0 / every : 10;
    if (rate <= 0 || rate > 10000) {
        fprintf(stderr, "iio-floor-reader: --poll RATE must be above 0 and at most 10000 Hz\n");
        return 2;
    }
    char paths[3][512];
    if (polling) {
        for (int axis = 0; axis < 3; axis++) {
            if (snprintf(paths[axis], sizeof paths[axis], "%s/in_accel_%c_raw", argv[4], 'x' + axis) >=
                (int)sizeof paths[axis]) {
                fprintf(stderr, "iio-floor-reader: SYSPATH too long\n");
                return 2;
            }
        }
    }
    int fd = -1, node = -1;
    if (every) {
        node = open("/dev/iio:device0", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (node < 0) {
            perror("iio-floor-reader: /dev/iio:device0");
            return 1;
        }
    }
    if (reopen || polling || every) {
        fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
        long period = (long)(1e9 / rate + 0.5);
        struct itimerspec spec = {{period / 1000000000, period % 1000000000}, {period / 1000000000, period % 1000000000}};
        if (fd < 0 || timerfd_settime(fd, 0, &spec, NULL) != 0) {
            perror("iio-floor-reader: timerfd");
            return 1;
        }
    } else {
        fd = open("/dev/iio:device0", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    }
    if (fd < 0) {
        perror("iio-floor-reader: /dev/iio:device0");
        return 1;
    }
    char buffer[4096];
    double start = now(), cpu_start = 0, window_start = 0;
    long wakeups = 0, bytes = 0, samples = 0;
    long long sum = 0;
    int warm = 0;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, 1000) > 0) {
            if (polling) {
                unsigned long long ticks;
                if (read(fd, &ticks, sizeof ticks) < 0) continue;
                int whole = 1;
                for (int axis = 0; axis < 3; axis++) {
                    int attribute = open(paths[axis], O_RDONLY | O_CLOEXEC);
                    ssize_t n = attribute >= 0 ? read(attribute, buffer, 63) : -1;
                    if (attribute >= 0) close(attribute);
                    if (n <= 0) {
                        whole = 0;
                        continue;
                    }
                    buffer[n] = 0;
                    sum += strtol(buffer, NULL, 10);
                    bytes += n;
                }
                samples += whole;
            } else if (reopen) {
                unsigned long long ticks;
                if (read(fd, &ticks, sizeof ticks) < 0) continue;
                int node = open("/dev/iio:device0", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
                if (node >= 0) {
                    ssize_t n = read(node, buffer, sizeof buffer);
                    if (n > 0) bytes += n;
                    close(node);
                }
            } else if (every) {
                unsigned long long ticks;
                if (read(fd, &ticks, sizeof ticks) < 0) continue;
                ssize_t n = read(node, buffer, sizeof buffer);
                if (n > 0) bytes += n;
            } else {
                ssize_t n = read(fd, buffer, sizeof buffer);
                if (n > 0) bytes += n;
            }
            wakeups++;
        }
        double t = now();
        if (!warm && t - start >= 1) {
            warm = 1;
            cpu_start = cpu_seconds();
            window_start = t;
            wakeups = bytes = samples = 0;
        } else if (warm && t - window_start >= seconds) {
            double elapsed = t - window_start;
            char mode[128];
            snprintf(mode, sizeof mode, "%s", reopen ? "floor: open, read and close every 100 ms in C"
                                                : "floor: poll and read in C");
            if (polling) snprintf(mode, sizeof mode, "floor: read in_accel_*_raw at %g Hz in C", rate);
            if (every) snprintf(mode, sizeof mode, "floor: read every %d watermarks (a timer) in C", every);
            printf("{\"bytesPerSecond\": %.0f, \"cpuMillisecondsPerSecond\": %.3f, \"mode\": \"%s\", "
                   "\"samplesPerSecond\": %.1f, \"seconds\": %.3f, \"wakeupsPerSecond\": %.1f}\n",
                   bytes / elapsed, (cpu_seconds() - cpu_start) * 1000 / elapsed, mode,
                   polling ? samples / elapsed : 0.0, elapsed, wakeups / elapsed);
            // The values read, so that the compiler keeps the parsing.
            if (sum == 42) fprintf(stderr, "\n");
            return 0;
        }
    }
}
