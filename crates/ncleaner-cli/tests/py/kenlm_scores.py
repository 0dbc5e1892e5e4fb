"""Scores sentences with KenLM's own query code (the `kenlm` package).

Usage: kenlm_scores.py MODEL.arpa SENTENCES.txt
Each input line is one sentence of space-separated, already normalised tokens;
prints one JSON list per line: the log10 probability of every token and of </s>.
"""
import json
import sys

import kenlm

model = kenlm.Model(sys.argv[1])
with open(sys.argv[2], encoding="utf-8") as f:
    for line in f:
        line = line.rstrip("\n")
        print(json.dumps([s[0] for s in model.full_scores(line, bos=True, eos=True)]))
