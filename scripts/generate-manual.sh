#!/usr/bin/env bash
# Writes docs/man/shakectl.1 from shakectl's own help, with swift-argument-parser's generate-manual
# (the tool behind `swift package plugin generate-manual`), so the page and `shakectl help` say the
# same. The page is committed rather than made while packaging: a shakectl cross-built for arm64
# cannot run on the build machine to dump its help, and the plugin would build every product again.
#
#   scripts/generate-manual.sh           # rewrite docs/man/shakectl.1 after changing shakectl's help
#   scripts/generate-manual.sh --check   # fail when docs/man/shakectl.1 is stale (scripts/test-package.sh)
#
# Three things the 1.8.2 tool does not do, done here:
#  - it drops every character that is not ASCII (m/s² came out as m/s), so the help it reads has
#    them as placeholders, put back as groff's \[uXXXX] escapes;
#  - it writes an empty line between paragraphs of a discussion, which man --warnings reports;
#    they become .Pp;
#  - it knows nothing of command groups or hidden commands: the person's commands and the lab's get a
#    subsection each, hidden commands (bench-iio) are left out as they are from --help, and
#    ENVIRONMENT and SEE ALSO are added.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
case "${1:-}" in
--check) check=1 ;;
"") ;;
*) echo "usage: scripts/generate-manual.sh [--check]" >&2; exit 64 ;;
esac
page=docs/man/shakectl.1

swift build --product shakectl >/dev/null
swift build --product generate-manual >/dev/null
bin=$(swift build --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The "tool" generate-manual runs: shakectl's help dump, hidden commands removed and non-ASCII
# characters spelled as placeholders the tool keeps.
cat >"$work/shakectl" <<EOF
#!/bin/sh
"$bin/shakectl" "\$@" | python3 -c '
import json, sys
def visible(command):
    command["subcommands"] = [visible(c) for c in command.get("subcommands", []) if c.get("shouldDisplay", True)]
    return command
def spell(value):
    if isinstance(value, str):
        return "".join(c if ord(c) < 128 else "UNICODE%04XEND" % ord(c) for c in value)
    if isinstance(value, list):
        return [spell(v) for v in value]
    if isinstance(value, dict):
        return {k: spell(v) for k, v in value.items()}
    return value
tool = json.load(sys.stdin)
tool["command"] = visible(tool["command"])
json.dump(spell(tool), sys.stdout)
'
EOF
chmod +x "$work/shakectl"

if [ "$check" = 1 ]; then
    date=$(sed -n 's/^\.Dd //p' "$page")
    date=$(date -d "$date" +%F)
else
    date=$(date +%F)
fi
"$bin/generate-manual" "$work/shakectl" --date "$date" --authors "the shaked authors" --output-directory - >"$work/raw.1"

python3 - "$work/raw.1" "$work/shakectl.1" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r"UNICODE([0-9A-F]{4})END", lambda m: "\\[u%s]" % m.group(1), text)
lines = [".Pp" if line == "" else line for line in text.rstrip("\n").split("\n")]
out = []
for line in lines:
    if line == ".It Em status":
        out += [".El", ".Ss Commands for a device running shaked", ".Bl -tag -width 6n"]
    elif line == ".It Em record":
        out += [".El", ".Ss Lab commands: recordings and the detector", ".Bl -tag -width 6n"]
    elif line == '.Sh "EXIT STATUS"':
        out += [
            ".Sh ENVIRONMENT",
            ".Bl -tag -width 6n",
            ".It Ev SHAKED_SOCKET",
            "The daemon's socket when",
            ".Fl -socket",
            "is not given; without either,",
            ".Pa /run/shaked/io.shaked.Undo .",
            ".It Ev LC_ALL , LC_MESSAGES , LANG",
            "The first one set chooses the language",
            ".Cm demo",
            "composes its prompts in (English or Korean).",
            ".El",
        ]
    elif line == ".Sh AUTHORS":
        out += [".Sh SEE ALSO", ".Xr shaked.conf 5 ,", ".Xr shaked 8"]
    out.append(line)
# The first list held only --help once the person's commands moved to their subsection; an empty
# list (".Bl" straight followed by ".El") is dropped.
text = "\n".join(out) + "\n"
text = re.sub(r"\.Bl -tag -width 6n\n\.El\n", "", text)
open(sys.argv[2], "w").write(text)
EOF

if [ "$check" = 1 ]; then
    diff -u "$page" "$work/shakectl.1" >&2 ||
        { echo "error: $page is stale; run scripts/generate-manual.sh and commit it" >&2; exit 1; }
    echo "$page matches shakectl's help"
else
    mkdir -p "$(dirname "$page")"
    cp "$work/shakectl.1" "$page"
    echo "wrote $page"
fi
