#!/usr/bin/env python3
"""Confusion of segment labels between an output dir and a gold dir (development aid).

Aligns unlabelled token sequences like the reference scorer and, for every
output marker aligned with a gold marker, counts (output label, gold label).
"""
import collections, difflib, os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../shared/tools"))
import cleaneval_score as cs

out, gold = sys.argv[1], sys.argv[2]
conf = collections.Counter()
for dp, _, fs in os.walk(gold):
    for f in fs:
        rel = os.path.relpath(os.path.join(dp, f), gold)
        o = os.path.join(out, rel)
        if not os.path.exists(o):
            continue
        ot = cs.tokens(cs.read(o)); gt = cs.tokens(cs.read(os.path.join(gold, rel)))
        ou = [('<p>' if cs.is_mark(t) else t) for t in ot]; gu = [('<p>' if cs.is_mark(t) else t) for t in gt]
        sm = difflib.SequenceMatcher(None, ou, gu)
        for a, b, n in sm.get_matching_blocks():
            for k in range(n):
                if cs.is_mark(ot[a+k]):
                    conf[(ot[a+k].lower(), gt[b+k].lower())] += 1
for k, v in sorted(conf.items()):
    print(k, v)
