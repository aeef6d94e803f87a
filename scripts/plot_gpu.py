#!/usr/bin/env python3
"""Plot the GPU summary (docs/perf/gpu_h200.csv) as docs/perf/gpu_h200.png.

    scripts/plot_gpu.py [docs/perf/gpu_h200.csv] [--out docs/perf/gpu_h200.png]

The CSV is written by hand from the results files it names (one row per workload: sweep's and
the anchor's share of memcpy bandwidth, both measured in the same process, and the ratio of
their times). Left panel: the bandwidth workloads, sweep next to its anchor, as % of memcpy.
Right panel: every row's ratio to its anchor (radix sorts included), with the 1.0x bar.
"""
import argparse
import csv
import sys


def main():
    p = argparse.ArgumentParser()
    p.add_argument("csv", nargs="?", default="docs/perf/gpu_h200.csv")
    p.add_argument("--out")
    a = p.parse_args()
    with open(a.csv, newline="") as f:
        rows = list(csv.DictReader(f))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not available: no plot", file=sys.stderr)
        return 1
    bw = [r for r in rows if r["sweep_pct_of_memcpy"]]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 6.5), gridspec_kw={"width_ratios": [3, 2]})

    y = range(len(bw))
    h = 0.4
    left.barh([i - h / 2 for i in y], [float(r["sweep_pct_of_memcpy"]) for r in bw], h,
              label="sweep::gpu", color="#1f77b4")
    left.barh([i + h / 2 for i in y], [float(r["anchor_pct_of_memcpy"]) for r in bw], h,
              label="anchor (CUB), same process", color="#bbbbbb")
    left.set_yticks(list(y))
    left.set_yticklabels([r["workload"] for r in bw], fontsize=8)
    left.invert_yaxis()
    left.set_xlim(0, 100)
    left.set_xlabel("% of memcpy bandwidth (H200, n = 2^28)")
    left.axvline(85, color="#2ca02c", linestyle=":", linewidth=1)
    left.text(85.5, -0.3, "85% goal", fontsize=7, color="#2ca02c")
    left.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, fontsize=8, frameon=False)
    left.grid(axis="x", alpha=0.3)

    yr = range(len(rows))
    ratios = [float(r["ratio_to_anchor"]) for r in rows]
    colors = ["#1f77b4" if x >= 1.0 else "#d62728" for x in ratios]
    right.barh(list(yr), ratios, 0.6, color=colors)
    right.set_yticks(list(yr))
    right.set_yticklabels([r["workload"] for r in rows], fontsize=8)
    right.invert_yaxis()
    right.axvline(1.0, color="black", linewidth=1)
    right.set_xlabel("speed vs anchor (anchor time / sweep time)")
    for i, x in enumerate(ratios):
        right.text(x + 0.03, i, f"{x:.2f}x", va="center", fontsize=7)
    right.set_xlim(0, max(ratios) * 1.15)
    right.grid(axis="x", alpha=0.3)

    fig.suptitle("sweep::gpu against CUB on one NVIDIA H200, n = 2^28 (sources: the results "
                 "files named in docs/perf/gpu_h200.csv)", fontsize=10)
    fig.tight_layout()
    out = a.out or a.csv.rsplit(".", 1)[0] + ".png"
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
