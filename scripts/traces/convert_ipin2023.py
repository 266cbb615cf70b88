#!/usr/bin/env python3
"""Convert IPIN 2023 Track 3 smartphone logfiles into shake-test traces (no shakes).

Source
    Torres-Sospedra, J. et al., "Datasets and Supporting Materials for the IPIN
    2023 Competition Track 3 (Smartphone-based, off-site)", Zenodo 2023,
    doi:10.5281/zenodo.8362205.  Read from the copy committed in the GitHub
    repository Kenny5269/2023_IPIN_Competition_Track03, folder
    "01 Logfiles/01 IPIN2023_T3_TrainingTrials (training)/", files
    IPIN2023_T3_TrainingTrialNN_repetitionMM.txt ('GetSensorData' app logs).
    Licence: that copy has no licence file; its ZZ_README.txt gives only the
    citation above and points to the Zenodo record for the terms.  CHECK THE
    ZENODO RECORD'S LICENCE BEFORE REDISTRIBUTING.

    Two people walked through the Museum Industriekultur in Nuremberg holding
    the phone in front of the face or chest, as when reading or typing
    (Samsung Galaxy A5 2017 SM-A520F and Galaxy S7 SM-G930F, Android 8.0):
    continuous walks of 2-4 minutes with turns, stops, doors, and in trials 51
    and 52 stairs between floors.

What it reads
    ACCE;AppTimestamp(s);SensorTimestamp(s);Acc_X;Acc_Y;Acc_Z;Accuracy lines
    (m/s^2, gravity included: Android's accelerometer) and POSI lines (ground
    truth landmarks; used only to find where the walk starts), the phone model
    from the '% Model:' header line.

What it changes
    * Every log starts with 20-40 s of deliberate arbitrary waving of the phone
      (sensor calibration, large and possibly shake-like), then 20-40 s held
      still, then the first landmark (POSI).  Everything before the first POSI
      minus --lead seconds (default 5 s, inside the still part) is cut.
      --keep-calibration keeps the whole log.
    * t = SensorTimestamp - SensorTimestamp of the first kept row (the sensor's
      own clock, 50 Hz).  Rows whose SensorTimestamp does not advance are
      dropped and counted.
    * Values are copied (already m/s^2), written with 4 decimals.

What it writes
    OUT/ipin_<activity>_<phone>_tNN_rMM.csv  t,x,y,z
    OUT/ipin_<activity>_<phone>_tNN_rMM.labels  empty: nothing here is a shake
    activity: walk-hand (trials 1-27, one floor), stairs-hand (trials 51-53,
    floor changes), phone: a5 or s7.

Usage
    Copy the training .txt logs out of the mirror one by one with
    'git --git-dir=<mirror> show "HEAD:<path>" > SRC/<path>', for every
    path of 'git ls-tree -r -l HEAD "01 Logfiles"' that ends in
    repetitionNN.txt and whose size column is not BAD (a snapshot lacks files
    of 4 MiB and more, so 'git archive' of the folder stops at the first).
    python3 convert_ipin2023.py SRC [--out DIR] [--lead S] [--keep-calibration]
"""

import argparse
import glob
import os
import re
import sys

import numpy as np

PHONES = {"SM-A520F": "a5", "SM-G930F": "s7"}


def parse_log(path):
    """Return (model, Nx4 array [sensor_t, x, y, z], app times Nx, first POSI app time)."""
    model, rows, app, posi0 = None, [], [], None
    with open(path, errors="replace") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("% Model:"):
                model = line.split(":", 1)[1].strip()
            elif line.startswith("ACCE;"):
                p = line.strip().split(";")
                try:
                    vals = [float(v) for v in p[1:6]]
                    if len(vals) != 5 or not all(np.isfinite(vals)):
                        raise ValueError
                except ValueError:
                    print(f"  cannot read {path} line {n}: {line.strip()!r}", file=sys.stderr)
                    continue
                app.append(vals[0])
                rows.append(vals[1:])
            elif line.startswith("POSI;") and posi0 is None:
                try:
                    posi0 = float(line.split(";")[1])
                except (ValueError, IndexError):
                    print(f"  cannot read {path} line {n}: {line.strip()!r}", file=sys.stderr)
    return model, np.array(rows, dtype=float).reshape(-1, 4), np.array(app, dtype=float), posi0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("src", help="folder searched recursively for IPIN2023_T3_TrainingTrial*_repetition*.txt")
    ap.add_argument("--out", default="/work/shared/traces/everyday-ipin2023", help="output folder")
    ap.add_argument("--lead", type=float, default=5.0, help="seconds kept before the first landmark (default 5)")
    ap.add_argument("--keep-calibration", action="store_true", help="keep the calibration waving at the start")
    args = ap.parse_args()

    files = sorted(glob.glob(os.path.join(args.src, "**", "IPIN2023_T3_*Trial*_repetition*.txt"), recursive=True))
    if not files:
        sys.exit(f"no IPIN2023_T3_*Trial*_repetition*.txt under {args.src}")
    os.makedirs(args.out, exist_ok=True)

    total_s, per_act, written = 0.0, {}, 0
    for path in files:
        m = re.search(r"Trial(\d+)_repetition(\d+)\.txt$", path)
        if not m:
            print(f"  skipping {path}: unexpected name", file=sys.stderr)
            continue
        trial, rep = int(m.group(1)), int(m.group(2))
        try:
            model, acc, app, posi0 = parse_log(path)
        except OSError as e:
            print(f"  cannot read {path}: {e}", file=sys.stderr)
            continue
        if len(acc) < 2:
            print(f"  skipping {path}: no ACCE rows", file=sys.stderr)
            continue
        cut = 0
        if not args.keep_calibration:
            if posi0 is None:
                print(f"  {path}: no POSI line, calibration not cut", file=sys.stderr)
            else:
                keep = app >= posi0 - args.lead
                cut = int((~keep).sum())
                acc = acc[keep]
        # Strictly increasing sensor time (after rounding to 4 decimals).
        t = np.round(acc[:, 0] - acc[0, 0], 4)
        good = np.ones(len(t), dtype=bool)
        last = -1.0
        for i, ti in enumerate(t):
            if ti <= last:
                good[i] = False
            else:
                last = ti
        dropped = int((~good).sum())
        t, xyz = t[good], acc[good, 1:]
        phone = PHONES.get(model, (model or "unknown").lower().replace(" ", "-"))
        act = "stairs-hand" if trial >= 50 else "walk-hand"
        name = f"ipin_{act}_{phone}_t{trial:02d}_r{rep:02d}"
        with open(os.path.join(args.out, name + ".csv"), "w") as f:
            f.write("t,x,y,z\n")
            for ti, (x, y, z) in zip(t, xyz):
                f.write(f"{ti:.4f},{x:.4f},{y:.4f},{z:.4f}\n")
        open(os.path.join(args.out, name + ".labels"), "w").close()
        dur = float(t[-1])
        total_s += dur
        per_act[act] = per_act.get(act, 0.0) + dur
        mag = np.linalg.norm(xyz, axis=1)
        rate = (len(t) - 1) / dur if dur > 0 else 0.0
        written += 1
        print(f"{name}: {len(t)} rows, {dur / 60:.1f} min, {rate:.1f} Hz, cut {cut} calibration rows,"
              f" dropped {dropped} not advancing, |a| median {np.median(mag):.2f} max {mag.max():.1f} m/s^2")

    print(f"\nwrote {written} traces to {args.out}: {total_s / 3600:.2f} h")
    for k, v in sorted(per_act.items(), key=lambda kv: -kv[1]):
        print(f"  {k}: {v / 60:.1f} min")


if __name__ == "__main__":
    main()
