#!/usr/bin/env python3
"""Convert the HyperIMU pocket-phone sessions into shake-test traces (no shakes).

Source
    DiFronzo/LSTM-for-Human-Activity-Recognition-classification on GitHub,
    folder "raw data/": acc_expNN_userMM.txt (one continuous recording each)
    and labels.txt.  Eight people carried a Samsung Galaxy S8 or S7 in a
    trouser pocket and recorded with the Android app HyperIMU while they
    walked, went up and down stairs, sat and stood, one activity flowing into
    the next (the labelled minutes are in labels.txt; the time between them is
    unlabelled: transitions, handling, walking to the next place).
    Licence: MIT, "Copyright (c) 2022 Andreas Lien" (LICENSE of that
    repository, which covers the data committed in it).

What it reads
    SRC/raw data/acc_exp*_user*.txt  three numbers a line: x y z, m/s^2,
                                     gravity included (the phone's raw
                                     accelerometer, LSM6DSL on the S8,
                                     K6DS3TR on the S7), one line per sample,
                                     no time stamps
    SRC/raw data/labels.txt          exp user activity start end (sample rows)

What it changes
    * Rows that are exactly 0 0 0 are dropped (the app writes them before the
      sensor delivers and as rare glitches); the count is printed.
    * Time: the files keep no time stamps.  Every labelled activity is a
      60 s window cut from the app's own time stamps (see handel_data.ipynb
      in the source), so the rate of a recording is taken as the median
      label length in samples / 60 s: about 47.4 Hz for six recordings and
      44.5 Hz for the other six.  t = row index / rate, so a dropped row
      leaves a gap of one sample.  --rate overrides this for every file.
    * Values are copied (already m/s^2), written with 4 decimals.
    * Whole recordings are kept (they are continuous sessions).

What it writes
    OUT/himu_session_userMM_expNN.csv    t,x,y,z
    OUT/himu_session_userMM_expNN.labels empty: nothing here is a shake

Usage
    git --git-dir=<mirror> archive HEAD "raw data" LICENSE | tar x -C SRC
    (git may report blobs missing elsewhere in a snapshot; the paths asked for
    are extracted all the same)
    python3 convert_himu.py SRC [--out DIR] [--rate HZ]
"""

import argparse
import glob
import os
import re
import sys

import numpy as np

ACTIVITIES = {1: "walking", 2: "stairs-up", 3: "stairs-down", 4: "sitting", 5: "standing"}
LABEL_WINDOW_S = 60.0


def read_labels(path):
    """Return {exp: [(activity, start, end), ...]}; report unreadable lines."""
    labels = {}
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                parts = line.split()
                if not parts:
                    continue
                try:
                    exp, _user, act, start, end = (int(p) for p in parts[:5])
                except ValueError:
                    print(f"  cannot read {path} line {n}: {line.strip()!r}", file=sys.stderr)
                    continue
                labels.setdefault(exp, []).append((act, start, end))
    except OSError as e:
        print(f"  cannot read {path}: {e}", file=sys.stderr)
    return labels


def read_acc(path):
    """Return (rows Nx3 float array, original row numbers); report bad lines."""
    rows, idx = [], []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            parts = line.split()
            if not parts:
                continue
            try:
                vals = [float(p) for p in parts[:3]]
                if len(vals) != 3 or not all(np.isfinite(vals)):
                    raise ValueError
            except ValueError:
                print(f"  cannot read {path} line {n}: {line.strip()!r}", file=sys.stderr)
                continue
            rows.append(vals)
            idx.append(n - 1)
    return np.array(rows, dtype=float).reshape(-1, 3), np.array(idx, dtype=int)


def estimate_rate(exp_labels):
    lengths = [end - start + 1 for (_a, start, end) in exp_labels if end > start]
    if not lengths:
        return None
    med = float(np.median(lengths))
    good = [l for l in lengths if abs(l - med) < 0.1 * med]
    return float(np.median(good)) / LABEL_WINDOW_S


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("src", help="folder holding 'raw data/' from the source repository")
    ap.add_argument("--out", default="/work/shared/traces/everyday-himu", help="output folder")
    ap.add_argument("--rate", type=float, default=None, help="sample rate in Hz for every file (default: from labels)")
    args = ap.parse_args()

    raw = os.path.join(args.src, "raw data")
    files = sorted(glob.glob(os.path.join(raw, "acc_exp*_user*.txt")))
    if not files:
        sys.exit(f"no acc_exp*_user*.txt under {raw}")
    labels = read_labels(os.path.join(raw, "labels.txt"))
    os.makedirs(args.out, exist_ok=True)

    total_s = 0.0
    per_act = {}
    written = 0
    for path in files:
        m = re.search(r"acc_exp(\d+)_user(\d+)\.txt$", path)
        if not m:
            print(f"  skipping {path}: unexpected name", file=sys.stderr)
            continue
        exp, user = int(m.group(1)), int(m.group(2))
        try:
            acc, idx = read_acc(path)
        except OSError as e:
            print(f"  cannot read {path}: {e}", file=sys.stderr)
            continue
        rate = args.rate or estimate_rate(labels.get(exp, []))
        if not rate:
            print(f"  skipping {path}: no labels to estimate the rate, give --rate", file=sys.stderr)
            continue
        zero = np.all(acc == 0.0, axis=1)
        acc, idx = acc[~zero], idx[~zero]
        if len(acc) < 2:
            print(f"  skipping {path}: fewer than 2 usable rows", file=sys.stderr)
            continue
        t = (idx - idx[0]) / rate
        # Strictly increasing after rounding to 4 decimals.
        tr = np.round(t, 4)
        keep = np.r_[True, np.diff(tr) > 0]
        stalled = int((~keep).sum())
        tr, acc = tr[keep], acc[keep]
        name = f"himu_session_user{user:02d}_exp{exp:02d}"
        with open(os.path.join(args.out, name + ".csv"), "w") as f:
            f.write("t,x,y,z\n")
            for ti, (x, y, z) in zip(tr, acc):
                f.write(f"{ti:.4f},{x:.4f},{y:.4f},{z:.4f}\n")
        open(os.path.join(args.out, name + ".labels"), "w").close()
        dur = float(tr[-1])
        total_s += dur
        labelled = 0.0
        for act, start, end in labels.get(exp, []):
            start, end = max(start, 0), min(end, int(idx[-1]))
            if end <= start:
                continue
            sec = (end - start + 1) / rate
            labelled += sec
            key = ACTIVITIES.get(act, f"activity-{act}")
            per_act[key] = per_act.get(key, 0.0) + sec
        per_act["unlabelled (transitions, handling)"] = per_act.get("unlabelled (transitions, handling)", 0.0) + max(dur - labelled, 0.0)
        mag = np.linalg.norm(acc, axis=1)
        written += 1
        print(f"{name}: {len(tr)} rows, {dur / 60:.1f} min at {rate:.2f} Hz, dropped {int(zero.sum())} zero rows"
              f" and {stalled} stalled, |a| median {np.median(mag):.2f} max {mag.max():.1f} m/s^2")

    print(f"\nwrote {written} traces to {args.out}: {total_s / 3600:.2f} h")
    for k, v in sorted(per_act.items(), key=lambda kv: -kv[1]):
        print(f"  {k}: {v / 60:.1f} min")


if __name__ == "__main__":
    main()
