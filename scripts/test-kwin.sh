#!/usr/bin/env bash
# The agent under KWin 6 on Wayland, as on a phone running Plasma Mobile, against Debian 13's own KWin
# and KDE apps: makes (once per machine, scripts/debian-root.sh) a Debian 13 root with KWin, KWrite,
# KWeather and the Qt 6 / Kirigami / PySide6 packages, then runs Tests/kwin with KWin, the apps and the
# agent chrooted in it, in a mount namespace of its own (the root's /proc, /dev, /sys, this machine's
# /tmp and this checkout at their own paths). Needs root.
#
#   scripts/test-kwin.sh             # prepare the root if needed, then run every test in Tests/kwin
#   scripts/test-kwin.sh --prepare   # only make the root (scripts/test.sh does this beside other steps)
#   scripts/test-kwin.sh -k KWrite   # unittest's own options, for one test
#   scripts/test-kwin.sh --screenshot    # clients/shake-agent/screenshot-plasma.png
set -euo pipefail
cd "$(dirname "$0")/.."

# What the root holds: KWin and its KService cache builder (plasma-workspace brings kbuildsycoca6's
# configuration), the apps, the accessibility stack, the agent's GTK and Kirigami sides, and what builds
# the agent's key helper (plasma-wayland-protocols' fake-input.xml).
PACKAGES=(kwin-wayland plasma-workspace kwrite kweather at-spi2-core python3-pyatspi python3-gi gir1.2-atspi-2.0
    gir1.2-gtk-4.0 gir1.2-adw-1 python3-pyside6.qtquick python3-pyside6.qtqml qml6-module-org-kde-kirigami
    qml6-module-qtquick-controls qml6-module-qtquick-layouts qml6-module-qtquick-window
    qml6-module-qtqml-workerscript qml6-module-qtquick-templates qml6-module-org-kde-breeze dbus
    libwayland-bin libwayland-dev plasma-wayland-protocols gcc libc6-dev pkg-config)

if [ "$(id -u)" != 0 ]; then
    echo "test-kwin: skipped: it makes a Debian root and runs KWin and the apps chrooted in it, so it needs root"
    exit 0
fi
root=$(scripts/debian-root.sh --suite trixie --arch amd64 --name trixie-amd64-kwin "${PACKAGES[@]}" | tail -n 1)
[ "${1:-}" = --prepare ] && { echo "test-kwin: $root ready"; exit 0; }

python=$(scripts/python-env.sh)
checkout=$PWD
# The namespace ends with the test: its mounts go with it, and with them nothing of the root stays in use.
exec unshare --mount --propagation private bash -euo pipefail -c '
    root=$1 checkout=$2 python=$3; shift 3
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount --rbind /sys "$root/sys"
    mount --bind /tmp "$root/tmp"
    mkdir -p "$root$checkout"
    mount --bind -o ro "$checkout" "$root$checkout"
    export SHAKED_KWIN_ROOT=$root
    [ "${1:-}" = --screenshot ] && exec "$python" -m shaked_harness.screenshot_kwin
    (($#)) || set -- -p "test_*.py"
    exec "$python" -W ignore::ResourceWarning -m unittest discover -s Tests/kwin "$@"
' test-kwin "$root" "$checkout" "$python" "$@"
