#!/usr/bin/env python3
"""Self time of a `perf report --no-children --stdio` by pipeline stage.

    perf report -i perf.data --no-children --percent-limit 0 --stdio | scripts/profile-stages.py

A function is given to the first stage whose pattern its symbol matches
(most specific first). Generic std and core functions that several stages
call (iterator adapters, `Vec::from_iter`, `from_utf8`, memchr) cannot be
told apart without call graphs and are counted as unattributed; so are
libc's copies and allocator, listed on their own.
"""
import re
import sys

STAGES = [
    ("HTML tokenizer", r"html5gum::|^ncleaner::html::tokenizer::"),
    ("page metadata (title, author, date)", r"ncleaner::html::metadata|ncleaner::pipeline::(dateline|kept_date|short_line)"),
    ("walker and consumers: tokens to blocks and containers", r"ncleaner::html::"),
    ("segments and their features", r"ncleaner::segment::"),
    ("character n-gram scorer", r"ncleaner::model::scorer"),
    ("boosted trees", r"ncleaner::classify::trees"),
    ("other classifier features", r"ncleaner::classify::"),
    ("decoding (charset detection, transcoding)", r"ncleaner::decode|chardetng|encoding_rs"),
    ("language identification", r"ncleaner::lang|whatlang"),
    ("page quality", r"ncleaner::quality"),
    ("output: cleaning rules, formats", r"ncleaner::cleaned|ncleaner::format"),
    ("reading inputs (WARC, gzip, files)", r"ncleaner_corpus|zlib_rs|flate2"),
    ("model loading", r"ncleaner::model::|serde_json|serde_core"),
    ("libc copies and allocator", r"^(__)?(mem(move|cpy|set|cmp)|_?int_(malloc|free|realloc)|malloc|free|realloc|cfree|__libc_)"),
    ("kernel", r"\[k\]"),
]

LINE = re.compile(r"^\s+([\d.]+)%\s+\S+\s+\S+\s+(\[[.k]\])\s+(.*)$")


def main():
    shares = {name: 0.0 for name, _ in STAGES}
    other = 0.0
    total = 0.0
    for line in sys.stdin:
        m = LINE.match(line)
        if not m:
            continue
        pct, kind, sym = float(m.group(1)), m.group(2), m.group(3).strip()
        total += pct
        probe = "[k] " + sym if kind == "[k]" else sym
        for name, pattern in STAGES:
            if re.search(pattern, probe):
                shares[name] += pct
                break
        else:
            other += pct
    print(f"{'share':>7}  stage (self time; {total:.1f} % of samples read)")
    for name, pct in sorted(shares.items(), key=lambda kv: -kv[1]):
        print(f"{pct:6.1f} %  {name}")
    print(f"{other:6.1f} %  unattributed (std and core generics, memchr, other)")


if __name__ == "__main__":
    main()
