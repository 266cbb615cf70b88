"""Memory and CPU of a running process, from /proc: shared by the benchmark scripts.

VmRSS and its parts come from /proc/PID/status, PSS from /proc/PID/smaps_rollup, and the
breakdown by mapping from /proc/PID/smaps (Rss and Pss summed per file, [heap], [stack] and
anonymous mappings).
"""

import os

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

def status_kib(pid):
    """VmRSS, RssAnon, RssFile and RssShmem in KiB."""
    values = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile", "RssShmem"):
                values[key] = int(rest.split()[0])
    return values


def pss_kib(pid):
    """Proportional set size: each shared page divided among the processes that map it."""
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            if line.startswith("Pss:"):
                return int(line.split()[1])
    raise RuntimeError("no Pss in /proc/%d/smaps_rollup" % pid)


def cpu_seconds(pid):
    """User plus system CPU time of the whole process, threads that ended included, in seconds
    (/proc/PID/stat, counted in clock ticks: 10 ms)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def thread_cpu_seconds(pid):
    """CPU time of the process's live threads, in seconds, to the nanosecond (the scheduler's
    /proc/PID/task/TID/schedstat): for processes whose threads live as long as the measurement."""
    total = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError):
            pass  # the thread ended
    return total / 1e9


def smaps_breakdown(pid):
    """{mapping: (rss KiB, pss KiB, private dirty KiB)}; files by base name, anonymous memory as [anon]."""
    totals = {}
    name = None
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            fields = line.split()
            if not fields:
                continue
            if "-" in fields[0] and len(fields) >= 5 and not fields[0].endswith(":"):
                path = fields[5] if len(fields) > 5 else ""
                if path.startswith("["):
                    name = "[anon]" if path.startswith("[anon") else path
                elif path:
                    name = os.path.basename(path)
                else:
                    name = "[anon]"
                totals.setdefault(name, [0, 0, 0])
            elif fields[0] == "Rss:":
                totals[name][0] += int(fields[1])
            elif fields[0] == "Pss:":
                totals[name][1] += int(fields[1])
            elif fields[0] == "Private_Dirty:":
                totals[name][2] += int(fields[1])
    return {k: tuple(v) for k, v in totals.items()}


def print_breakdown(title, breakdown, limit=14, out=None):
    """The largest mappings by Rss, one line each, the rest summed."""
    rows = sorted(breakdown.items(), key=lambda item: -item[1][0])
    print("  %s (KiB: Rss, Pss, Private_Dirty)" % title, file=out)
    for name, (rss, pss, dirty) in rows[:limit]:
        print("    %-40s %7d %7d %7d" % (name, rss, pss, dirty), file=out)
    rest = rows[limit:]
    if rest:
        print("    %-40s %7d %7d %7d" % ("(%d others)" % len(rest), sum(r[1][0] for r in rest),
                                         sum(r[1][1] for r in rest), sum(r[1][2] for r in rest)), file=out)


def mib(kib):
    return kib / 1024.0
