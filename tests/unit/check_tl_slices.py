#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check a sliced timeline: check_tl_slices.py OUTDIR CAP_BYTES [WHOLE_JSON | =EVENTS]

OUTDIR holds msprof_<n>_<YYYYmmddHHMMSS>.json, n = 0, 1, ... (and no
unsliced msprof_<ts>.json).  Each slice is at most CAP_BYTES, parses on its
own as a trace event array, holds the same metadata events (ph "M") as
every other slice, and holds both ends ("s" and "f") of every flow it has
one end of.  With WHOLE_JSON (the same export unsliced): the metadata of
each slice is the whole file's, and the other events of all slices
together are exactly the whole file's (as a multiset).  With =EVENTS:
the slices hold EVENTS events besides their metadata.  Prints the slice
count and events per slice; exit 0 when all holds, 1 otherwise.
"""
import collections
import json
import os
import re
import sys

SLICE = re.compile(r"^msprof_(\d+)_(\d{14})\.json$")
WHOLE = re.compile(r"^msprof_\d{14}\.json$")


def key(e):
    return json.dumps(e, sort_keys=True)


def main(argv):
    out, cap = argv[1], int(argv[2])
    bad = []
    names = sorted(os.listdir(out))
    if any(WHOLE.match(n) for n in names):
        bad.append("an unsliced msprof_<ts>.json is there too")
    slices = sorted((int(m.group(1)), n) for n in names for m in [SLICE.match(n)] if m)
    if [i for i, _ in slices] != list(range(len(slices))) or len(slices) < 2:
        bad.append(f"slices are not 0..n-1 (n >= 2): {[n for _, n in slices]}")
    metas, rest = None, collections.Counter()
    for i, n in slices:
        path = os.path.join(out, n)
        size = os.path.getsize(path)
        if size > cap:
            bad.append(f"{n}: {size} bytes, more than {cap}")
        evs = json.load(open(path, encoding="utf-8"))
        meta = sorted(key(e) for e in evs if e.get("ph") == "M")
        if metas is None:
            metas = meta
        elif meta != metas:
            bad.append(f"{n}: its metadata differs from slice 0's")
        ends = collections.Counter()
        for e in evs:
            if e.get("ph") != "M":
                rest[key(e)] += 1
            if e.get("ph") in ("s", "f"):
                ends[(e.get("cat"), e.get("id"), e["ph"])] += 1
        for (cat, fid, ph) in list(ends):
            other = "f" if ph == "s" else "s"
            if ends[(cat, fid, other)] != ends[(cat, fid, ph)]:
                bad.append(f"{n}: flow {cat} {fid} has its {ph} but not its {other}")
                break
        print(f"{n}: {size} bytes, {len(evs) - len(meta)} events + {len(meta)} metadata")
    if len(argv) > 3 and argv[3].startswith("="):
        if sum(rest.values()) != int(argv[3][1:]):
            bad.append(f"events: slices hold {sum(rest.values())}, want {argv[3][1:]}")
    elif len(argv) > 3:
        whole = json.load(open(argv[3], encoding="utf-8"))
        if sorted(key(e) for e in whole if e.get("ph") == "M") != metas:
            bad.append("the metadata of the slices is not the whole file's")
        want = collections.Counter(key(e) for e in whole if e.get("ph") != "M")
        if want != rest:
            bad.append(f"events: slices hold {sum(rest.values())}, the whole file "
                       f"{sum(want.values())} (or other ones)")
        print(f"whole: {sum(want.values())} events; slices: {sum(rest.values())}")
    for b in bad:
        print("FAIL:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
