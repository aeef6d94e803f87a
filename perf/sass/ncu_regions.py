#!/usr/bin/env python3
"""perf/sass/ncu_regions.py -- one kernel's stall samples, summed between its barriers.

Input: ncu's source page as CSV (session 20), e.g. on the device machine
    ncu --clock-control none -k regex:radix_onesweep --launch-skip 5 -c 1 \
        --section SourceCounters --section WarpStateStats -o rep PROGRAM ARGS
    ncu -i rep.ncu-rep --page source --csv --print-source sass > sass.csv
Prints, for each stretch of SASS between two barriers (BAR, EXIT), its warp-stall samples (the
share of the kernel's), its instructions executed, its memory and warp-wide instructions (shared,
global and local loads, stores and atomics; VOTE, MATCH, SHFL) and its three largest stall reasons, so that two kernels of the same algorithm (CUB's and sweep's)
can be set side by side phase by phase.

    perf/sass/ncu_regions.py sass.csv [more.csv ...]
"""
import collections
import csv
import re
import sys

MEM = ('ATOMS', 'LDG', 'STG', 'VOTE', 'MATCH', 'LDS', 'STS', 'ATOMG', 'SHFL', 'RED', 'STL', 'LDL')


def num(cell):
    """A counter cell as ncu writes it (an integer, perhaps with thousands separators, or empty)."""
    cell = cell.replace(',', '').strip()
    return int(float(cell)) if cell not in ('', '-') else 0


def regions(path):
    rows = list(csv.reader(open(path)))
    # The header is the first row that names the stall samples (the kernel's name comes first).
    h = next(i for i, r in enumerate(rows) if 'Warp Stall Sampling (All Samples)' in r)
    hdr, data = rows[h], rows[h + 1:]
    ix = {h: i for i, h in enumerate(hdr)}
    stalls = [h for h in hdr if h.startswith('stall_') and '(Not Issued)' not in h]
    total = sum(num(r[ix['Warp Stall Sampling (All Samples)']]) for r in data)
    print(f'== {path}: {total} samples, {len(data)} instructions')
    start, smp, ins = 0, 0, 0
    mem, why = collections.Counter(), collections.Counter()
    for i, r in enumerate(data):
        op = r[ix['Source']].strip()
        m = re.match(r'(@!?U?P\w+\s+)?([A-Z0-9_.]+)', op)
        opc = m.group(2).split('.')[0] if m else '?'
        smp += num(r[ix['Warp Stall Sampling (All Samples)']])
        ex = num(r[ix['Instructions Executed']])
        ins += ex
        if opc in MEM:
            mem[opc] += ex
        for s in stalls:
            why[s[6:]] += num(r[ix[s]])
        if opc in ('BAR', 'EXIT') or i == len(data) - 1:
            if smp:
                top = ', '.join(f'{k} {v}' for k, v in why.most_common(3))
                ops = ' '.join(f'{k} {v / 1e6:.2f}M' for k, v in mem.most_common() if v > 1000)
                print(f'{start:5d}-{i:5d} {smp:6d} samples ({100 * smp / total:5.1f}%) '
                      f'{ins / 1e6:7.2f}M instr | {ops} | {top}')
            start, smp, ins = i + 1, 0, 0
            mem, why = collections.Counter(), collections.Counter()


if __name__ == '__main__':
    for p in sys.argv[1:]:
        regions(p)
