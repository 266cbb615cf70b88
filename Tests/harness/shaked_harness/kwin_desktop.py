"""Plasma's display server without a screen: KWin 6 (`kwin_wayland --virtual`) and Qt 6 / KDE apps
from a Debian 13 root, as on a phone running Plasma Mobile. The tests themselves, shaked and the
session and accessibility buses run on this machine; KWin, the apps and the agent run chrooted in the
root, with this machine's /tmp (where the buses' and Wayland's sockets are) and this checkout at their
own paths, inside a mount namespace that scripts/test-kwin.sh makes.

Keys go in through KWin's fake input protocol with the agent's own helper (`shake-agent-keys type`),
which KWin offers only to the program an installed .desktop file names (org.shaked.AgentKeys.desktop,
in the session's XDG_DATA_HOME here, found through the KService cache kbuildsycoca6 makes)."""

import os
import shutil
import signal
import subprocess

from shaked_harness import ROOT

from .desktop import Desktop, wait_for

#: The Debian 13 root with KWin and the apps (scripts/test-kwin.sh prepares it and says where).
KWIN_ROOT = os.environ.get("SHAKED_KWIN_ROOT", "")
KEYS_SOURCE = os.path.join(ROOT, "clients", "shake-agent", "keys")
AGENT_KEYS_DESKTOP = os.path.join(ROOT, "clients", "shake-agent", "keys", "org.shaked.AgentKeys.desktop")


def missing():
    if not KWIN_ROOT or not os.path.exists(os.path.join(KWIN_ROOT, "usr", "bin", "kwin_wayland")):
        return ["a Debian 13 root with kwin-wayland in SHAKED_KWIN_ROOT (scripts/test-kwin.sh makes one)"]
    return []


class KWinDesktop(Desktop):
    """Headless KWin in the root, on a session bus (with the accessibility bus) of this machine's."""

    WIDTH, HEIGHT = 360, 720

    def __init__(self):
        super().__init__(prefix="shaked-kwin-")
        os.chmod(self.dir, 0o700)
        self.groups = []
        self.kwin_env = {}

    def root_env(self, **extra):
        """The environment of a program in the root: the session's, nothing of this machine's."""
        env = {name: os.environ[name] for name in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "WAYLAND_DISPLAY")
               if name in os.environ}
        home = os.path.join(self.dir, "home")
        env.update(PATH="/usr/sbin:/usr/bin:/sbin:/bin", LANG="C.UTF-8", HOME=home,
                   XDG_DATA_HOME=os.path.join(home, "data"), XDG_CONFIG_HOME=os.path.join(home, "config"),
                   XDG_CACHE_HOME=os.path.join(home, "cache"), XDG_STATE_HOME=os.path.join(home, "state"),
                   XDG_CURRENT_DESKTOP="KDE", XDG_SESSION_TYPE="wayland", KDE_FULL_SESSION="true",
                   # Plasma's menu (plasma-workspace), without which KService lists no applications at all.
                   XDG_MENU_PREFIX="plasma-",
                   QT_QPA_PLATFORM="wayland", QT_QUICK_CONTROLS_STYLE="org.kde.breeze",
                   QT_QUICK_CONTROLS_MOBILE="1", PLASMA_PLATFORM="phone:handset")
        env.update(extra)
        return env

    def in_root(self, argv, env=None):
        """The command line that runs argv in the root. KWin as root would raise itself to realtime
        priority, and a KWin left behind would then spin a core: CAP_SYS_NICE is dropped for all."""
        environment = ["%s=%s" % item for item in self.root_env(**(env or {})).items()]
        return ["setpriv", "--bounding-set=-sys_nice", "--inh-caps=-sys_nice", "chroot", KWIN_ROOT,
                "/usr/bin/env", "-i", *environment, *argv]

    def spawn(self, argv, log, env=None):
        """Starts argv in the root in a process group of its own (stop() ends the group)."""
        out = open(os.path.join(self.dir, log + ".log"), "a")
        process = subprocess.Popen(self.in_root(argv, env), stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
        self.groups.append(process)
        return process

    def run(self, argv, env=None, timeout=120):
        done = subprocess.run(self.in_root(argv, env), capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise AssertionError("%s failed in the root (status %d): %s"
                                 % (argv[0], done.returncode, (done.stdout + done.stderr)[-2000:]))
        return done.stdout

    def start(self):
        os.environ.update(XDG_RUNTIME_DIR=self.dir)
        os.environ.pop("DISPLAY", None)
        self._start_session_bus()
        home = self.root_env()["HOME"]
        for name in ("data/applications", "config", "cache", "state"):
            os.makedirs(os.path.join(home, name), exist_ok=True)
        # The agent's key helper, built in the root against its Wayland, and the .desktop file KWin's
        # check asks for, naming it; then the KService cache that KWin reads it through.
        self.keys = self.run([os.path.join(KEYS_SOURCE, "build.sh"), os.path.join(self.dir, "keys")]).split()[-1]
        with open(AGENT_KEYS_DESKTOP) as f:
            entry = f.read().replace("Exec=/usr/libexec/shaked/shake-agent-keys", "Exec=" + self.keys)
        assert "Exec=" + self.keys in entry, "org.shaked.AgentKeys.desktop has no Exec= line to point at the build"
        with open(os.path.join(home, "data", "applications", "org.shaked.AgentKeys.desktop"), "w") as f:
            f.write(entry)
        self.run(["kbuildsycoca6", "--noincremental"])

        # The root's kwin_wayland carries the file capability CAP_SYS_NICE, which exec refuses once the
        # bounding set lacks it: a copy (which has no file capabilities) runs instead.
        kwin_copy = os.path.join(self.dir, "kwin_wayland")
        shutil.copyfile(os.path.join(KWIN_ROOT, "usr", "bin", "kwin_wayland"), kwin_copy)
        os.chmod(kwin_copy, 0o755)
        kwin = self.spawn([kwin_copy, *self.output(), "--width", str(self.WIDTH), "--height", str(self.HEIGHT),
                           "--no-lockscreen", "--socket", "wayland-kwin"], "kwin", env=self.kwin_env)
        socket = os.path.join(self.dir, "wayland-kwin")
        wait_for(lambda: os.path.exists(socket) or kwin.poll() is not None, 60, "KWin to serve wayland-kwin")
        if kwin.poll() is not None:
            raise AssertionError("kwin_wayland exited (status %s): %s" % (kwin.returncode, self._log("kwin")))
        os.environ["WAYLAND_DISPLAY"] = "wayland-kwin"

    def output(self):
        """Where KWin draws: a virtual framebuffer of its own (KWinOnXvfb draws into an X window)."""
        return ["--virtual"]

    def type(self, text):
        """Types text into the focused window through KWin's fake input, as a keyboard would."""
        self.run([self.keys, "type", text], timeout=30)

    def stop(self):
        # Every process group started in the root, KWin's last, so that no KWin outlives the test.
        for process in reversed(self.groups):
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            process.wait()
        super().stop()


class KWinOnXvfb(KWinDesktop):
    """KWin drawing its output into a window on Xvfb (its X11 backend) instead of a framebuffer of its
    own, so that the screen can be photographed: with no GPU, KWin's virtual backend composites with
    QPainter, for which it offers no screenshot. For pictures only; the tests use --virtual."""

    def output(self):
        ready_read, ready_write = os.pipe()
        self._spawn(["Xvfb", "-displayfd", str(ready_write), "-screen", "0", "%dx%dx24" % (self.WIDTH, self.HEIGHT),
                     "-nolisten", "tcp", "-noreset"], pass_fds=(ready_write,))
        os.close(ready_write)
        with os.fdopen(ready_read) as ready:
            self.display = ":" + self._read_line(ready, 20, "Xvfb")
        self.kwin_env = dict(self.kwin_env, DISPLAY=self.display)
        return ["--x11-display", self.display]

    def screenshot(self, path):
        subprocess.run(["import", "-display", self.display, "-window", "root", path], check=True)
