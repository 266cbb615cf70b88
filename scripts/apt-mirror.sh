#!/usr/bin/env bash
# Prints the Debian archive this machine's apt uses: the first URI of an enabled `deb` source whose
# suites are Debian releases (not -security), from /etc/apt/sources.list, its .list files and its
# deb822 .sources files, so that debootstrap fetches from the same archive as apt does here.
# Fails, saying what to do, when apt names none.
#
#   mirror=$(scripts/apt-mirror.sh)            # e.g. the archive from /etc/apt/sources.list.d/debian.sources
#   scripts/apt-mirror.sh --sources-dir DIR    # read DIR/sources.list and DIR/sources.list.d instead (tests)
set -euo pipefail

dir=/etc/apt
while (($#)); do
    case "$1" in
    --sources-dir) dir=${2:?--sources-dir needs a folder}; shift ;;
    -h | --help)
        sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *) echo "error: unknown argument '$1'; see scripts/apt-mirror.sh --help" >&2; exit 2 ;;
    esac
    shift
done

# Debian's release names and the words for them: a source for one of these is the Debian archive.
releases='^(oldoldstable|oldstable|stable|testing|unstable|sid|experimental|buster|bullseye|bookworm|trixie|forky|duke)(-updates|-backports)?$'

files=()
[ -f "$dir/sources.list" ] && files+=("$dir/sources.list")
for f in "$dir"/sources.list.d/*.list "$dir"/sources.list.d/*.sources; do
    [ -f "$f" ] && files+=("$f")
done

found=""
for f in "${files[@]}"; do
    case "$f" in
    *.sources)
        # deb822 stanzas, blank-line separated: Types, URIs, Suites, Enabled.
        found=$(awk -v releases="$releases" '
            function flush() {
                if (!done && types ~ /(^| )deb( |$)/ && enabled != "no" && uris != "") {
                    n = split(suites, s, " ")
                    for (i = 1; i <= n; i++) if (s[i] ~ releases) { split(uris, u, " "); print u[1]; done = 1; exit }
                }
                types = ""; uris = ""; suites = ""; enabled = ""
            }
            /^[ \t]*#/ { next }
            /^[ \t]*$/ { flush(); next }
            {
                key = tolower($1); sub(/:$/, "", key); $1 = ""; sub(/^ +/, "")
                if (key == "types") types = $0
                else if (key == "uris") uris = $0
                else if (key == "suites") suites = $0
                else if (key == "enabled") enabled = tolower($0)
            }
            END { flush() }
        ' "$f")
        ;;
    *)
        # One-line style: deb [options] URI SUITE COMPONENT...
        found=$(awk -v releases="$releases" '
            /^[ \t]*deb[ \t]/ {
                i = 2
                if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
                if ($(i + 1) ~ releases) { print $i; exit }
            }
        ' "$f")
        ;;
    esac
    [ -n "$found" ] && break
done

if [ -z "$found" ]; then
    echo "error: apt names no Debian archive here (no enabled 'deb' source for a Debian release in" \
        "$dir/sources.list or $dir/sources.list.d); add one, or give the archive with --mirror URL" >&2
    exit 1
fi
echo "${found%/}"
