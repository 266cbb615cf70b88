// libsystemd: the journal's native protocol (sd_journal_sendv), logind's view of seats and
// users (sd-login), sd-bus (logind's session hints over the system bus), and sd-daemon
// (sd_notify, sd_watchdog_enabled, sd_listen_fds_with_names).
// Only the Systemd module imports this.
#ifndef SHAKED_CSYSTEMD_SHIM_H
#define SHAKED_CSYSTEMD_SHIM_H
// Call sd_journal_sendv itself, not the macro that adds this file's CODE_FILE= and CODE_LINE=.
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-journal.h>
#include <systemd/sd-login.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-bus.h>
#include <sys/eventfd.h>
#include <sys/uio.h>
#endif
