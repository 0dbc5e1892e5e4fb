#!/usr/bin/env python3
"""Writes crates/ncleaner/src/html/tokenizer/entities.rs: the WHATWG named
character references as data, from Python's `html.entities.html5` (the
standard's entities.json: 2,231 names, those ending in `;` and the 106
legacy names that HTML also reads without one).

    python3 scripts/gen-entities.py        (rewrites the file; rerun when the table changes)
"""
import html.entities
import os

out = os.path.join(os.path.dirname(__file__), "..", "crates", "ncleaner", "src", "html", "tokenizer", "entities.rs")
table = sorted(html.entities.html5.items(), key=lambda kv: kv[0].encode())
lines = [
    "//! The WHATWG named character references, sorted by name (bytes), as data:",
    "//! each name without its `&` (ending in `;` except the legacy names that",
    "//! HTML also reads without one) and its one or two characters. Written by",
    "//! `scripts/gen-entities.py` from Python's `html.entities.html5`, the",
    "//! standard's entities.json; not edited by hand.",
    "",
    "/// (name, characters) of every named character reference, sorted by name.",
    "#[rustfmt::skip]",
    f"pub(super) static ENTITIES: [(&str, &str); {len(table)}] = [",
]
row = []
def lit(s):
    return '"' + "".join(c if 0x20 < ord(c) < 0x7f and c not in '"\\' else f"\\u{{{ord(c):x}}}" for c in s) + '"'
for name, chars in table:
    row.append(f"({lit(name)}, {lit(chars)})")
    if len(row) == 4:
        lines.append("    " + ", ".join(row) + ",")
        row = []
if row:
    lines.append("    " + ", ".join(row) + ",")
lines.append("];")
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
print(f"{out}: {len(table)} names")
