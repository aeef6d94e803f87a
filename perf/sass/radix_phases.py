#!/usr/bin/env python3
"""perf/sass/radix_phases.py SASS_FILE -- splits one kernel's SASS (cuobjdump -sass, one function)
at its barriers and exits and prints, per segment, the instruction count and the instructions that
matter for the radix pass (global/shared loads, stores and atomics with their widths, votes,
shuffles, barriers, R2P, spills). The segments of the Onesweep pass are its phases: ticket and
zeroing, load + histogram, counts + publish, warp offsets, block scan, ranking, shared scatter +
look-back, global scatter (full and partial tile paths). perf/notes-gpu.md R3 has the tables."""
import collections
import re
import sys

KEEP = ('LDG', 'STG', 'LDS', 'STS', 'ATOMS', 'ATOMG', 'VOTE', 'SHFL', 'BAR', 'R2P', 'MATCH',
        'POPC', 'FLO', 'BRA', 'LDL', 'STL')
INSN = re.compile(r'\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)')


def main(path):
    segs, seg = [], []
    for line in open(path):
        m = INSN.match(line)
        if not m:
            continue
        seg.append((int(m.group(1), 16), m.group(3)))
        if m.group(3).startswith('BAR') or m.group(3) == 'EXIT':
            segs.append(seg)
            seg = []
    segs.append(seg)
    total = 0
    for s in segs:
        if not s:
            continue
        c = collections.Counter()
        for _, op in s:
            parts = op.split('.')
            base = parts[0]
            if base in ('LDG', 'STG', 'LDS', 'STS', 'ATOMS'):
                w = [x for x in parts if x in ('64', '128', 'U8', 'U16', 'S8', 'S16')]
                base += '.' + w[0] if w else ''
            c[base] += 1
        total += len(s)
        body = ' '.join(f'{k}:{v}' for k, v in sorted(c.items()) if k.split('.')[0] in KEEP)
        print(f'{s[0][0]:05x}-{s[-1][0]:05x} n={len(s):5d}  {body}  | ends {s[-1][1]}')
    print(f'total {total} instructions (static)')


if __name__ == '__main__':
    main(sys.argv[1])
