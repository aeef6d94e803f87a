#!/usr/bin/env python3
"""scripts/perf_table.py -- turn a sweep benchmark run (Google Benchmark --benchmark_format=json)
into a markdown table and, when matplotlib is installed, a PNG bar chart.

Benchmarks are named WORKLOAD/IMPL and carry the counters GBps (median) and pct_memcpy, as
perf/cpu/bench_cpu.cpp writes them. For each workload the table gives every implementation's GB/s
and % of memcpy, and sweep's ratio to each anchor (every other implementation of the workload).

    scripts/perf_table.py RUN.json [--out PREFIX]   -> PREFIX.md, PREFIX.png (default: RUN path)
"""
import argparse
import json
import os
import sys
from collections import OrderedDict

SWEEP_PREFIX = "sweep"


def load(path):
    with open(path) as f:
        run = json.load(f)
    rows = OrderedDict()  # workload -> OrderedDict(impl -> counters)
    for b in run.get("benchmarks", []):
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = b["name"].split("/manual_time")[0]
        if "/" not in name or "GBps" not in b:
            continue
        workload, impl = name.split("/", 1)
        rows.setdefault(workload, OrderedDict())[impl] = b
    return run.get("context", {}), rows


def table(context, rows):
    memcpy = rows.get("memcpy", {})
    ceiling = next(iter(memcpy.values()))["GBps"] if memcpy else None
    out = []
    n = context.get("n", "?")
    host = context.get("host_name", "?")
    cpus = context.get("num_cpus", "?")
    out.append(f"n = {n}, host {host} ({cpus} CPUs), threads cap {context.get('threads', '0')}, "
               f"run {context.get('date', '?')}")
    if ceiling:
        out.append(f"ceiling: oneTBB-parallel memcpy {ceiling:.1f} GB/s (bytes read + written)")
    out.append("")
    out.append("| workload | implementation | GB/s | % of memcpy | sweep / this anchor |")
    out.append("| --- | --- | ---: | ---: | ---: |")
    for workload, impls in rows.items():
        if workload == "memcpy":
            continue
        sweep = {k: v for k, v in impls.items() if k.startswith(SWEEP_PREFIX)}
        sweep_gbps = next(iter(sweep.values()))["GBps"] if sweep else None
        for impl, b in impls.items():
            gbps = b["GBps"]
            pct = f"{100.0 * gbps / ceiling:.1f}%" if ceiling else "n/a"
            ratio = ""
            if sweep_gbps and not impl.startswith(SWEEP_PREFIX):
                ratio = f"{sweep_gbps / gbps:.2f}x"
            out.append(f"| {workload} | {impl} | {gbps:.2f} | {pct} | {ratio} |")
    return "\n".join(out) + "\n", ceiling


def plot(rows, ceiling, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("perf_table.py: matplotlib not installed; table only", file=sys.stderr)
        return False
    workloads = [w for w in rows if w != "memcpy"]
    fig, ax = plt.subplots(figsize=(max(6, 2.2 * len(workloads)), 4.5))
    x = 0.0
    ticks, labels = [], []
    for w in workloads:
        impls = rows[w]
        start = x
        for impl, b in impls.items():
            val = 100.0 * b["GBps"] / ceiling if ceiling else b["GBps"]
            color = "tab:blue" if impl.startswith(SWEEP_PREFIX) else "tab:gray"
            ax.bar(x, val, width=0.8, color=color)
            ax.text(x, val, impl, rotation=90, ha="center", va="bottom", fontsize=7)
            x += 1
        ticks.append((start + x - 1) / 2)
        labels.append(w)
        x += 1
    ax.set_xticks(ticks)
    ax.set_xticklabels(labels, fontsize=8)
    ax.set_ylabel("% of parallel memcpy" if ceiling else "GB/s")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.35)
    ax.set_title("sweep::par (blue) and its anchors (gray)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("json")
    ap.add_argument("--out", help="output prefix (default: the JSON path without .json)")
    args = ap.parse_args()
    prefix = args.out or os.path.splitext(args.json)[0]
    context, rows = load(args.json)
    if not rows:
        sys.exit(f"perf_table.py: no benchmarks with a GBps counter in {args.json}")
    text, ceiling = table(context, rows)
    with open(prefix + ".md", "w") as f:
        f.write(text)
    print(text)
    if plot(rows, ceiling, prefix + ".png"):
        print(f"wrote {prefix}.md, {prefix}.png")
    else:
        print(f"wrote {prefix}.md")


if __name__ == "__main__":
    main()
