#!/usr/bin/env bash
# What a reading path's stream costs the detector (docs/sensors.md, "What a reading path delivers" and
# "The polling rate"): every development set in ../shared/traces scored once per stream, a Markdown row a
# stream, so that the tables there can be measured again with one command after any detector change.
#
#   scripts/sweep-streams.sh                       # the streams docs/sensors.md lists
#   scripts/sweep-streams.sh "--stream-rate 60" "--stream-gaps 700:100"   # only these (one argument each)
#   SHAKECTL=/path/to/shakectl scripts/sweep-streams.sh                   # another build; skips the build
#   TRACES=/elsewhere/traces scripts/sweep-streams.sh
#
# A stream is a set of `shakectl evaluate` options (see its --help): --stream-rate HZ feeds the detector
# the first sample at or after each 1/HZ s, --stream-gaps PERIOD:LENGTH drops the last LENGTH ms of every
# PERIOD ms; none is the traces' own rate. Each row: the corpus (hits, false positives, median latency),
# other-hands (shakes and waggles), many-hands (hits, false alarms in swings and throws / letters / rest,
# median latency) and everyday-ku-har (false alarms). Progress goes to standard error.
set -euo pipefail
cd "$(dirname "$0")/.."
traces=${TRACES:-../shared/traces}
[ -d "$traces" ] || { echo "error: no traces at $traces: put the shared corpus beside the checkout or set TRACES" >&2; exit 1; }
if [ -z "${SHAKECTL:-}" ]; then
    scripts/build-release.sh --product shakectl >&2
    SHAKECTL="$(scripts/build-release.sh --show-bin-path)/shakectl"
fi
if [ $# -eq 0 ]; then
    set -- "" "--stream-rate 100" "--stream-rate 75" "--stream-rate 60" "--stream-rate 55" "--stream-rate 50" \
        "--stream-rate 45" "--stream-rate 40" "--stream-rate 33" "--stream-rate 30" "--stream-rate 25" \
        "--stream-rate 16" "--stream-rate 10" "--stream-gaps 700:100" "--stream-gaps 700:200" \
        "--stream-gaps 700:350" "--stream-rate 16 --stream-gaps 700:200"
fi

echo "| stream | corpus: hits, FP, median latency | other-hands: hits, FP, median latency | many-hands: hits, FP in swings / letters / rest, median latency | everyday-ku-har: false alarms |"
echo "|---|---|---|---|---|"
own="the traces' own rate"
for stream in "$@"; do
    echo "scoring every set with: ${stream:-$own}" >&2
    # shellcheck disable=SC2086 # a stream is several options
    "$SHAKECTL" evaluate "$traces" --summary --format json $stream 2>/dev/null |
        STREAM="${stream:-$own}" python3 -c '
import json, os, sys
rows = {}
for line in sys.stdin:
    row = json.loads(line)
    if row.get("detector") == "shaked" and not row.get("total"):
        rows[row["set"].rsplit("/", 1)[-1]] = row
def latency(row):
    return "-" if row.get("latencyMedian") is None else "%.3f s" % row["latencyMedian"]
def cell(name):
    row = rows.get(name)
    if row is None:
        return "(not found)"
    return "%d/%d, %d, %s" % (row["hits"], row["labelled"], row["falsePositives"], latency(row))
def many_hands():
    row = rows.get("many-hands")
    if row is None:
        return "(not found)"
    groups = row.get("falseAlarmsByGroup", {})
    return "%d/%d, %d / %d / %d, %s" % (row["hits"], row["labelled"], groups.get("swingsAndThrows", 0),
                                         groups.get("midairLetters", 0), groups.get("rest", 0), latency(row))
kuhar = rows.get("everyday-ku-har")
print("| %s | %s | %s | %s | %s |" % (os.environ["STREAM"], cell("traces"), cell("other-hands"), many_hands(),
      kuhar["falsePositives"] if kuhar else "(not found)"))
'
done
