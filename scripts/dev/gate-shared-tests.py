#!/usr/bin/env python3
"""Marks the Rust tests that need ../shared/data, Python, Java or Chromium.

Each such `#[test]` gets, on the line before it,
`#[cfg_attr(not(feature = "shared-data"), ignore = "...")]`, so that a plain
`cargo test` on a fresh clone reports them as ignored (not passed), and
`scripts/test` (which runs with --all-features) runs them. A test needs them
when its body, or a function of the same file it calls (transitively), names
one of MARKERS. Idempotent: run it again after adding tests.

    scripts/dev/gate-shared-tests.py FILE...
"""
import re
import sys

MARKERS = ["shared_data(", "shared_dir(", "python_with(", "run_python(", "chromium",
           "chromedriver", "CHROMEDRIVER", "\"java\"", "NCLEANER_PYTHON", ".venv",
           "peers-venv", "spark", "pytest"]
ATTR = ('#[cfg_attr(not(feature = "shared-data"), ignore = '
        '"needs ../shared/data, Python, Java or Chromium: scripts/test runs it")]')


def bodies(src):
    """name -> (start of the `fn` line, body text) for every fn of the file."""
    out = {}
    for m in re.finditer(r"(?m)^[ \t]*(?:pub(?:\([a-z]+\))? )?(?:async )?fn ([a-z_0-9]+)", src):
        i = src.find("{", m.end())
        if i < 0:
            continue
        depth, j = 0, i
        while j < len(src):
            if src[j] == "{":
                depth += 1
            elif src[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        out.setdefault(m.group(1), (m.start(), src[i:j + 1]))
    return out


def gate(path):
    src = open(path).read()
    fns = bodies(src)
    needs = {n for n, (_, b) in fns.items() if any(k in b for k in MARKERS)}
    changed = True
    while changed:
        changed = False
        for n, (_, b) in fns.items():
            if n not in needs and any(re.search(r"\b%s\(" % re.escape(d), b) for d in needs):
                needs.add(n)
                changed = True
    lines = src.split("\n")
    out, count = [], 0
    for k, line in enumerate(lines):
        if line.strip() in ("#[test]", "#[tokio::test]") or line.strip().startswith("#[tokio::test("):
            # the fn this attribute belongs to
            name = None
            for nxt in lines[k + 1:k + 6]:
                m = re.match(r"\s*(?:async )?fn ([a-z_0-9]+)", nxt)
                if m:
                    name = m.group(1)
                    break
            # rustfmt may spread the attribute over several lines
            prev = " ".join(x.strip() for x in out[-4:])
            if name in needs and 'feature = "shared-data"' not in prev:
                indent = line[: len(line) - len(line.lstrip())]
                out.append(indent + ATTR)
                count += 1
        out.append(line)
    if count:
        open(path, "w").write("\n".join(out))
    print(f"{path}: {count} tests gated, {len(needs)} fns need shared resources")


for p in sys.argv[1:]:
    gate(p)
