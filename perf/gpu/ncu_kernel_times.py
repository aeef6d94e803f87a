#!/usr/bin/env python3
"""perf/gpu/ncu_kernel_times.py -- kernel-only times from Nsight Compute, as a markdown table.

Reads the CSV that `ncu --csv --page raw --metrics gpu__time_duration.sum ... BENCH ARGS` prints
(session 26: repeated runs agree within ~0.3-1 us, where the benches' event-timed calls scatter
by ~2 us). A bench times a contender as a sequence of launches of one kernel: 3 warm-ups, `reps`
timed, and usually one check. This script takes each kernel's launches in order (--group name,
the default: right for the interleaved rows, whose contenders' launches alternate) or runs of
consecutive launches of one kernel (--group consecutive: the tuning rows, timed one after the
other), cuts them into runs of --run launches, drops the first --skip (and, from a full run, the
last --last-skip) and prints the median of the rest in microseconds: one row per run, one column
per file.

Usage: ncu_kernel_times.py [--group name|consecutive] [--run 29] [--skip 3] [--last-skip 1]
                           FILE.csv [FILE.csv ...]
  --run N        launches a run holds (3 + 25 + 1 for a row of the compaction bench's tables;
                 3 + 25 for its tuning rows, with --last-skip 0)
  --skip K       leading launches dropped from each run (the warm-ups)
  --last-skip J  trailing launches dropped from a full run (the check)
Files with different launch sequences give rows that do not line up; compare like with like.
--group name needs one contender a kernel: in the full tables `cub`, `cub+count` and `cub+mapped`
launch the same CUB kernel, and below 2^26 partition_copy's sweep and register contenders the same sweep
kernel, so time one of each there (the compaction bench's SWEEP_BENCH_ONLY=sweep,cub).
A run with no launches left after the skips prints an empty cell.
"""
import argparse
import csv
import re
import statistics
import sys


def launches(path):
    """[(kernel name, microseconds)] in launch order."""
    try:
        with open(path, newline="") as f:
            lines = f.read().splitlines()
    except OSError as e:
        sys.exit(f"{path}: {e.strerror}")
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        sys.exit(f"{path}: no ncu CSV header (\"ID\",...) found")
    rows = list(csv.reader(lines[start:]))
    header, data = rows[0], rows[1:]
    for column in ("Kernel Name", "gpu__time_duration.sum"):
        if column not in header:
            sys.exit(f"{path}: no column {column} (ncu --metrics gpu__time_duration.sum --page raw)")
    name = header.index("Kernel Name")
    time = header.index("gpu__time_duration.sum")
    scale = {"ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3}
    unit = data[0][time] if data else ""
    if unit not in scale:
        sys.exit(f"{path}: unexpected unit \"{unit}\" for gpu__time_duration.sum")
    out = []
    for r in data[1:]:
        try:
            v = float(r[time].replace(",", ""))
        except (ValueError, IndexError):
            continue
        out.append((r[name], v * scale[unit]))
    if not out:
        sys.exit(f"{path}: no kernel launches")
    return out


def label(kernel):
    """A short name: the function and its first template arguments."""
    k = re.sub(r"\(.*$", "", kernel)
    k = re.sub(r"^void ", "", k)
    k = re.sub(r"\b(sweep|cub|detail|cuda|thrust|cuda_cub)::", "", k)
    return (k[:100] + "...") if len(k) > 103 else k


def runs(items, group, run, skip, last_skip):
    seqs = []  # (kernel, [us]) in order of first launch
    if group == "name":
        index = {}
        for kernel, us in items:
            if kernel not in index:
                index[kernel] = len(seqs)
                seqs.append((kernel, []))
            seqs[index[kernel]][1].append(us)
        seqs = [(k, v[i:i + run]) for k, v in seqs for i in range(0, len(v), run)]
    else:
        for kernel, us in items:
            if seqs and seqs[-1][0] == kernel and len(seqs[-1][1]) < run:
                seqs[-1][1].append(us)
            else:
                seqs.append((kernel, [us]))
    table = []
    for kernel, v in seqs:
        kept = v[skip:len(v) - last_skip] if len(v) == run else v[skip:]
        table.append((kernel, len(v), statistics.median(kept) if kept else None))
    return table


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--group", choices=["name", "consecutive"], default="name")
    ap.add_argument("--run", type=int, default=29)
    ap.add_argument("--skip", type=int, default=3)
    ap.add_argument("--last-skip", type=int, default=1)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    if a.run < 1 or a.skip < 0 or a.last_skip < 0:
        ap.error("--run must be at least 1, --skip and --last-skip at least 0")
    tables = [runs(launches(f), a.group, a.run, a.skip, a.last_skip) for f in a.files]
    n = max(len(t) for t in tables)
    print("| # | kernel | launches | " + " | ".join(a.files) + " |")
    print("|---|---|---|" + "---|" * len(a.files))
    for i in range(n):
        first = next(t[i] for t in tables if i < len(t))
        cells = ["%.1f" % t[i][2] if i < len(t) and t[i][2] is not None else "" for t in tables]
        print(f"| {i} | `{label(first[0])}` | {first[1]} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
