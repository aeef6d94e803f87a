#!/usr/bin/env python3
"""scripts/plot_numerics.py -- plot the CSV of perf/numerics_error.cpp (sweep_numerics_error):
relative error of the last prefix against the condition number, log-log, one line per
(policy, mode), one panel per type. Needs matplotlib.

    sweep_numerics_error 20 > errors.csv
    scripts/plot_numerics.py errors.csv [--out errors.png]
"""
import argparse
import csv
from collections import defaultdict


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--out", default=None)
    ap.add_argument("--column", default="rel_err_total",
                    help="rel_err_total (default) or worst_rel_err_prefix")
    a = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = defaultdict(list)  # (type, policy, mode) -> [(cond, err)]
    with open(a.csv) as f:
        for row in csv.DictReader(f):
            series[(row["type"], row["policy"], row["mode"])].append(
                (float(row["cond"]), float(row[a.column])))
    types = sorted({k[0] for k in series})
    fig, axes = plt.subplots(1, len(types), figsize=(7 * len(types), 5.5), squeeze=False)
    styles = {"seq": "-", "par": "--", "gpu": ":"}
    markers = {"plain": "o", "deterministic": "s", "compensated": "^",
               "compensated+deterministic": "v"}
    u = {"double": 2.0 ** -53, "float": 2.0 ** -24}
    for ax, t in zip(axes[0], types):
        for (ty, pol, mode), pts in sorted(series.items()):
            if ty != t:
                continue
            pts.sort()
            # log scales cannot show 0: an exact result is drawn at u/100
            ys = [max(e, u[t] / 100) for _, e in pts]
            ax.plot([c for c, _ in pts], ys, styles.get(pol, "-"), marker=markers.get(mode, "x"),
                    label=f"{pol} {mode}")
        ax.axhline(u[t], color="grey", lw=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("condition number  sum|x| / |sum x|")
        ax.set_ylabel(f"relative error ({a.column})")
        ax.set_title(f"{t}: sweep numerics modes (grey: u)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    out = a.out or a.csv.rsplit(".", 1)[0] + ".png"
    fig.savefig(out, dpi=110)
    print(out)


if __name__ == "__main__":
    main()
