#!/usr/bin/env python3
"""Convert UMAFall smartphone (trouser pocket) clips into shake-test traces (no shakes).

Source
    E. Casilari, J. A. Santoyo-Ramon, J. M. Cano-Garcia, "UMAFall: A Multisensor
    Dataset for the Research on Automatic Fall Detection", Procedia Computer
    Science 110 (2017) 32-39; data "UMAFall: Fall Detection Dataset (Universidad
    de Malaga)", figshare, doi:10.6084/m9.figshare.4214283.  Read from the
    copy committed in the GitHub repository lucas101199/FallDetection, folder
    UMAFall_Dataset/ (651 of the original files, without their '%' header
    comments).  Licence: that copy carries none.  The figshare record is
    reported (not read here) as CC BY 4.0; the same data in the University of
    Malaga repository (RIUMA, hdl:10630/41001) is reported as CC BY-NC 4.0.
    CHECK BEFORE REDISTRIBUTING.

    Young adults emulated everyday movements and falls, each clip about 15 s,
    with an Android smartphone in the right trouser pocket and four SensorTag
    motes elsewhere on the body.  Only the smartphone is used here.

What it reads
    UMAFall_Subject_SS_{ADL|Fall}_<Movement>_<trial>_<date>_<time>.csv
    rows "TimeStamp;Sample No;X-Axis;Y-Axis;Z-Axis;Sensor_Type;Sensor_ID"
    (ms; sample counter; g; 0=accelerometer; 0=smartphone in the right pocket).
    Lines starting with '%' or not of that form are skipped (reported).

What it changes
    * Keeps Sensor_Type 0, Sensor_ID 0 (the phone's accelerometer, gravity
      included); g x 9.80665 -> m/s^2, 4 decimals.
    * Time: the TimeStamp column is when the app received a batch of samples
      (several samples share one millisecond, then a jump of 20-30 ms), not
      when they were measured; dropping the repeats would leave an uneven
      ~100 Hz stream with batching jitter.  Instead TimeStamp is fitted
      against Sample No by least squares and t = (Sample No - first) x
      fitted period: the phone's own rate, about 200 Hz, evenly spaced.  The
      fit's residual (batching latency) is printed.  Rows whose sample
      number does not advance are dropped and counted.
    * Keeps the body-motion movements (walking, jogging, hopping, stairs,
      sitting down and getting up, lying down on a bed, bending, the three
      falls); skips hand-only ones (clapping, hands up, making a call,
      opening a door) unless --all.
    * Skips subject 13 (--skip-subjects): every one of its phone clips stays
      within +-1 g on every axis with |a| around 0.5 g while hopping, so the
      phone stream is not a usable accelerometer recording.

What it writes
    OUT/umafall_<movement>_sSS_<trial>.csv   t,x,y,z
    OUT/umafall_<movement>_sSS_<trial>.labels  empty: nothing here is a shake

Usage
    git --git-dir=<mirror> archive HEAD UMAFall_Dataset | tar x -C SRC
    python3 convert_umafall.py SRC [--out DIR] [--all]
"""

import argparse
import glob
import os
import re
import sys

import numpy as np

G = 9.80665
MOVEMENTS = {
    "Walking": "walking",
    "Jogging": "jogging",
    "Hopping": "hopping",
    "GoUpstairs": "stairs-up",
    "GoDownstairs": "stairs-down",
    "Sitting_GettingUpOnAChair": "sit-down-get-up",
    "LyingDown_OnABed": "lie-down-bed",
    "Bending": "bending",
    "forwardFall": "fall-forward",
    "backwardFall": "fall-backward",
    "lateralFall": "fall-lateral",
}
HAND_ONLY = {
    "Aplausing": "clapping",
    "HandsUp": "hands-up",
    "MakingACall": "making-a-call",
    "OpeningDoor": "opening-door",
}
NAME_RE = re.compile(r"UMAFall_Subject_(\d+)_(ADL|Fall)_(.+)_(\d+)_(\d{4}-\d\d-\d\d)_(\d\d-\d\d-\d\d)\.csv$")


def read_phone(path):
    """Return Nx5 array [ms, sample_no, x, y, z] for sensor type 0, id 0."""
    rows, bad = [], 0
    with open(path, errors="replace") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s.strip(";") or s.startswith("%") or s.startswith("TimeStamp"):
                continue  # blank (also ';;;;;;;'), comment or header
            p = s.split(";")
            try:
                if len(p) < 7:
                    raise ValueError
                if int(p[5]) != 0 or int(p[6]) != 0:
                    continue
                vals = [float(v) for v in p[:5]]
                if not all(np.isfinite(vals)):
                    raise ValueError
            except ValueError:
                bad += 1
                if bad <= 3:
                    print(f"  cannot read {path} line {n}: {s[:80]!r}", file=sys.stderr)
                continue
            rows.append(vals)
    if bad > 3:
        print(f"  ... {bad} unreadable lines in {path}", file=sys.stderr)
    return np.array(rows, dtype=float).reshape(-1, 5)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("src", help="folder searched recursively for UMAFall_Subject_*.csv")
    ap.add_argument("--out", default="/work/shared/traces/everyday-umafall", help="output folder")
    ap.add_argument("--all", action="store_true", help="also keep the hand-only movements")
    ap.add_argument("--skip-subjects", default="13", help="comma-separated subject numbers to leave out (default 13)")
    args = ap.parse_args()

    files = sorted(glob.glob(os.path.join(args.src, "**", "UMAFall_Subject_*.csv"), recursive=True))
    if not files:
        sys.exit(f"no UMAFall_Subject_*.csv under {args.src}")
    os.makedirs(args.out, exist_ok=True)
    skip_subj = {int(v) for v in args.skip_subjects.split(",") if v.strip()}
    names = {}
    total_s, per_act, counts, written, skipped, skipped_subj = 0.0, {}, {}, 0, 0, 0
    worst_resid = 0.0
    for path in files:
        m = NAME_RE.search(os.path.basename(path))
        if not m:
            print(f"  skipping {path}: unexpected name", file=sys.stderr)
            continue
        subj, _kind, move, trial, date, clock = m.groups()
        if int(subj) in skip_subj:
            skipped_subj += 1
            continue
        act = MOVEMENTS.get(move)
        if act is None:
            if args.all and move in HAND_ONLY:
                act = HAND_ONLY[move]
            else:
                skipped += 1
                continue
        try:
            a = read_phone(path)
        except OSError as e:
            print(f"  cannot read {path}: {e}", file=sys.stderr)
            continue
        if len(a) < 10:
            print(f"  skipping {path}: {len(a)} smartphone accelerometer rows", file=sys.stderr)
            continue
        a = a[np.argsort(a[:, 1], kind="stable")]
        adv = np.r_[True, np.diff(a[:, 1]) > 0]
        stalled = int((~adv).sum())
        a = a[adv]
        ms, sn = a[:, 0], a[:, 1]
        slope, icpt = np.polyfit(sn, ms, 1)
        resid = ms - (slope * sn + icpt)
        if not (1000.0 / 250 <= slope <= 1000.0 / 25):
            print(f"  skipping {path}: fitted rate {1000 / slope:.1f} Hz out of range", file=sys.stderr)
            continue
        worst_resid = max(worst_resid, float(np.abs(resid).max()))
        t = np.round((sn - sn[0]) * slope / 1000.0, 4)
        xyz = a[:, 2:5] * G
        base = f"umafall_{act}_s{int(subj):02d}_{int(trial)}"
        name = base
        if name in names:  # same subject, movement and trial number recorded again
            name = f"{base}_{date.replace('-', '')}"
        if name in names:
            name = f"{base}_{date.replace('-', '')}_{clock.replace('-', '')}"
        names[name] = path
        with open(os.path.join(args.out, name + ".csv"), "w") as f:
            f.write("t,x,y,z\n")
            for ti, (x, y, z) in zip(t, xyz):
                f.write(f"{ti:.4f},{x:.4f},{y:.4f},{z:.4f}\n")
        open(os.path.join(args.out, name + ".labels"), "w").close()
        dur = float(t[-1])
        total_s += dur
        per_act[act] = per_act.get(act, 0.0) + dur
        counts[act] = counts.get(act, 0) + 1
        written += 1
        peak = np.abs(a[:, 2:5]).max()
        print(f"{name}: {len(t)} rows, {dur:.1f} s at {1000 / slope:.1f} Hz, {stalled} stalled rows dropped,"
              f" batching residual max {np.abs(resid).max():.0f} ms, peak |axis| {peak:.2f} g")

    print(f"\nwrote {written} traces to {args.out}: {total_s / 3600:.2f} h"
          f" (skipped {skipped} hand-only clips and {skipped_subj} clips of subjects"
          f" {sorted(skip_subj)}; worst batching residual {worst_resid:.0f} ms)")
    for k, v in sorted(per_act.items(), key=lambda kv: -kv[1]):
        print(f"  {k}: {counts[k]} clips, {v / 60:.1f} min")


if __name__ == "__main__":
    main()
