#!/usr/bin/env python3
"""Reference scorer for WCXB (Murrough Foley, WCXB: Web Content eXtraction
Benchmark, 2026; CC-BY-4.0). Standard library only.

    wcxb_score.py [OUTDIR ...] [--gt GTDIR] [--json] [--per-page FILE]
                  [--metadata DIR ...] [--markdown DIR ...]

Pages are the ground-truth files GTDIR/NNNN.json (default
../shared/data/wcxb/ground-truth from the repository root); each page's output
is OUTDIR/NNNN.txt (UTF-8, invalid bytes replaced; a missing file is an empty
output). Several OUTDIRs give one row each, named by the folder's name.
Output is Markdown tables, or one JSON object with --json.

Text (the benchmark's metric, ../shared/data/README.md "The WCXB metric"):
- tokens = re.findall(r"\\w+", text.lower()) (Python's Unicode \\w);
  overlap = size of the multiset intersection of output and gold tokens;
  P = overlap / output tokens, R = overlap / gold tokens, F1 = 2PR / (P + R)
  (0 when P + R = 0).
- Empty gold and empty output: P = R = F1 = 1. Empty output, non-empty gold:
  0. Empty gold, non-empty output (19 dev pages have no gold tokens; two have
  no main_content at all, read as empty): P = R = F1 = 0, so only an empty
  output scores there.
- P, R and F1 are averaged over pages (macro), overall and per page type
  (_internal.page_type.primary).
- Snippets: a `with` (`without`) snippet is found when snippet.lower() is a
  substring of output.lower() (no other normalisation). A page's rate is the
  share of its snippets found; rates are averaged over the pages that have
  snippets of that kind (pages with none are left out of that average).
- --per-page FILE writes TSV: system, page, type, P, R, F1, output tokens,
  gold tokens, with found/total, without found/total.

--metadata DIR: DIR/NNNN.meta.json = {"title", "author", "date"} (null or
absent = no value; a missing file = all null) against ground_truth.title,
.author, .publish_date.
- Titles and authors are normalised: unicodedata NFKC, lower case, the \\w+
  tokens joined by one space; a value that normalises to "" is null.
- Dates: the first 10 characters of each side (ISO YYYY-MM-DD...), compared
  as strings (two dev golds are YYYY-MM and can only match an output that
  is also YYYY-MM).
- "right" = normalised output equals normalised gold, over pages whose gold
  is non-null (reported as a share and a count); "invented" = a non-null
  output where the gold is null (reported as a count, of the pages with null
  gold).
- Authors, rule for several names: the gold and the output are each split
  into names on ",", ";", "&", "|" and the word "and"/"und"/"et"
  (case-insensitive), each name normalised as above, empty names dropped.
  The author is right when (a) the whole normalised strings are equal, or
  (b) the sets of names are equal (order and separators ignored), or
  (c) the output is one name and it equals one of the gold's names (an
  extractor that gives the first of several authors is right). Rule (c)
  means a gold "Jane Doe, MD" is also matched by "md"; rare, accepted. The
  strict figure (a alone) is reported beside it as author_strict.

--markdown DIR: DIR/NNNN.md against ground_truth.main_content_markdown.
Items are read line by line (after \\r\\n -> \\n):
- code block: a fenced block opened by a line whose stripped form starts with
  ``` and closed by the next such line; its text is the lines between.
  Lines inside a fence are not read as other items; a fence left open at
  the end is no code block (and its lines no items).
- heading: after optional indentation, 1-6 "#" then whitespace; text
  without the #s ("#1 Item" and "#tag" are not headings).
- list item: after optional indentation, "-", "*" or "+" or digits followed
  by "." or ")", then whitespace; thematic breaks (---, * * *) are not items.
- table row: a line whose stripped form starts with "|", other than the
  separator row (only |, -, :, spaces).
- An item's text is its lower-cased \\w+ tokens joined by spaces; items with
  no token (e.g. an empty table row "| | |") are dropped.
An output item is found when the gold page has an unused item of the same
kind and the same text (multiset intersection per page and kind). Counts are
pooled over pages: recall = found / gold items, precision = found / output
items. A missing .md file is an empty output.
"""

import argparse
import json
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

WORD = re.compile(r"\w+")
TYPES = ["article", "forum", "product", "collection", "listing", "documentation", "service"]
KINDS = ["heading", "list", "table", "code"]
DEFAULT_GT = Path(__file__).resolve().parent.parent.parent / "shared/data/wcxb/ground-truth"


def tokens(text):
    return WORD.findall(text.lower())


def read(path):
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return ""


def load_gt(gt_dir):
    pages = []
    for f in sorted(gt_dir.glob("*.json")):
        d = json.loads(f.read_text(encoding="utf-8"))
        g = d.get("ground_truth") or {}
        pages.append({
            "id": f.stem,
            "type": ((d.get("_internal") or {}).get("page_type") or {}).get("primary") or "unknown",
            "text": g.get("main_content") or "",
            "markdown": g.get("main_content_markdown") or "",
            "title": g.get("title"),
            "author": g.get("author"),
            "date": g.get("publish_date"),
            "with": g.get("with") or [],
            "without": g.get("without") or [],
        })
    if not pages:
        sys.exit(f"wcxb_score.py: no ground-truth files in {gt_dir}")
    return pages


def prf(out_toks, gold_toks):
    if not gold_toks:
        return (1.0, 1.0, 1.0) if not out_toks else (0.0, 0.0, 0.0)
    if not out_toks:
        return 0.0, 0.0, 0.0
    overlap = sum((Counter(out_toks) & Counter(gold_toks)).values())
    p, r = overlap / len(out_toks), overlap / len(gold_toks)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def score_text(pages, out_dir):
    rows = []
    for pg in pages:
        out = read(out_dir / f"{pg['id']}.txt")
        ot, gt = tokens(out), tokens(pg["text"])
        p, r, f = prf(ot, gt)
        low = out.lower()
        w = sum(s.lower() in low for s in pg["with"])
        wo = sum(s.lower() in low for s in pg["without"])
        rows.append({"page": pg["id"], "type": pg["type"], "P": p, "R": r, "F1": f,
                     "out_tokens": len(ot), "gold_tokens": len(gt),
                     "with_found": w, "with_total": len(pg["with"]),
                     "without_found": wo, "without_total": len(pg["without"])})
    res = {"pages": len(rows)}
    for k in ("P", "R", "F1"):
        res[k] = mean([x[k] for x in rows])
    res["with_rate"] = mean([x["with_found"] / x["with_total"] for x in rows if x["with_total"]])
    res["without_rate"] = mean([x["without_found"] / x["without_total"] for x in rows if x["without_total"]])
    res["empty_outputs"] = sum(1 for x in rows if not x["out_tokens"])
    by = defaultdict(list)
    for x in rows:
        by[x["type"]].append(x)
    res["by_type"] = {t: {"pages": len(xs), **{k: mean([x[k] for x in xs]) for k in ("P", "R", "F1")}}
                      for t, xs in sorted(by.items(), key=lambda kv: TYPES.index(kv[0]) if kv[0] in TYPES else 99)}
    return res, rows


# --- metadata ---------------------------------------------------------------

AUTHOR_SPLIT = re.compile(r"\s*(?:[,;&|]|\band\b|\bund\b|\bet\b)\s*", re.I)


def norm_text(s):
    if s is None:
        return None
    if not isinstance(s, str):
        s = "; ".join(map(str, s)) if isinstance(s, list) else str(s)
    n = " ".join(tokens(unicodedata.normalize("NFKC", s)))
    return n or None


def author_names(s):
    if not isinstance(s, str):
        s = "; ".join(map(str, s)) if isinstance(s, list) else str(s)
    return {n for n in (norm_text(part) for part in AUTHOR_SPLIT.split(s)) if n}


def norm_date(s):
    if s is None:
        return None
    s = str(s).strip()[:10]
    return s or None


def author_right(out, gold):
    if norm_text(out) == norm_text(gold):
        return True
    on, gn = author_names(out), author_names(gold)
    return on == gn or (len(on) == 1 and on <= gn)


def score_metadata(pages, meta_dir):
    fields = {"title": (norm_text, lambda o, g: norm_text(o) == norm_text(g)),
              "author": (norm_text, author_right),
              "author_strict": (norm_text, lambda o, g: norm_text(o) == norm_text(g)),
              "date": (norm_date, lambda o, g: norm_date(o) == norm_date(g))}
    gold_key = {"title": "title", "author": "author", "author_strict": "author", "date": "date"}
    out_key = {"title": "title", "author": "author", "author_strict": "author", "date": "date"}
    acc = {f: Counter() for f in fields}
    missing = 0
    for pg in pages:
        p = meta_dir / f"{pg['id']}.meta.json"
        try:
            meta = json.loads(p.read_text(encoding="utf-8")) or {}
        except FileNotFoundError:
            meta, missing = {}, missing + 1
        for f, (norm, right) in fields.items():
            o, g = meta.get(out_key[f]), pg[gold_key[f]]
            on, gn = norm(o), norm(g)
            c = acc[f]
            if gn is not None:
                c["gold"] += 1
                c["right"] += bool(on is not None and right(o, g))
                c["output_missing"] += on is None
            else:
                c["gold_null"] += 1
                c["invented"] += on is not None
    res = {"pages": len(pages), "missing_files": missing}
    for f, c in acc.items():
        res[f] = {"gold_non_null": c["gold"], "right": c["right"],
                  "accuracy": c["right"] / c["gold"] if c["gold"] else float("nan"),
                  "output_null_where_gold": c["output_missing"],
                  "gold_null": c["gold_null"], "invented": c["invented"]}
    return res


# --- markdown structure -------------------------------------------------------

HEADING = re.compile(r"^\s*(#{1,6})\s+(.*)$")
LIST = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$")
HRULE = re.compile(r"^\s*(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$")
TABLE_SEP = re.compile(r"^[\s|:\-]+$")


def item_text(s):
    return " ".join(tokens(s))


def md_items(md):
    items = Counter()
    lines = md.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    code = None
    for line in lines:
        st = line.strip()
        if code is not None:
            if st.startswith("```"):
                items["code", item_text("\n".join(code))] += 1
                code = None
            else:
                code.append(line)
            continue
        if st.startswith("```"):
            code = []
            continue
        m = HEADING.match(line)
        if m:
            items["heading", item_text(m.group(2))] += 1
            continue
        if HRULE.match(line):
            continue
        m = LIST.match(line)
        if m:
            items["list", item_text(m.group(1))] += 1
            continue
        if st.startswith("|"):
            if not TABLE_SEP.match(st):
                items["table", item_text(st)] += 1
            continue
    # An unclosed fence (one dev gold page) is not a code block; its lines are
    # not read as other items either.
    del items[("heading", "")], items[("list", "")], items[("table", "")], items[("code", "")]
    return items


def score_markdown(pages, md_dir):
    gold, out, found = Counter(), Counter(), Counter()
    missing = 0
    for pg in pages:
        p = md_dir / f"{pg['id']}.md"
        if not p.exists():
            missing += 1
        gi, oi = md_items(pg["markdown"]), md_items(read(p))
        for (kind, _), n in gi.items():
            gold[kind] += n
        for (kind, _), n in oi.items():
            out[kind] += n
        for (kind, _), n in (gi & oi).items():
            found[kind] += n
    res = {"pages": len(pages), "missing_files": missing}
    for k in KINDS:
        res[k] = {"gold": gold[k], "output": out[k], "found": found[k],
                  "recall": found[k] / gold[k] if gold[k] else float("nan"),
                  "precision": found[k] / out[k] if out[k] else float("nan")}
    return res


# --- output -------------------------------------------------------------------

def f3(x):
    return "n/a" if x != x else f"{x:.3f}"


def markdown_report(text, meta, md):
    lines = []
    if text:
        types = [t for t in TYPES if any(t in r["by_type"] for r in text.values())]
        n = next(iter(text.values()))["by_type"]
        lines.append("| system | P | R | F1 | " + " | ".join(f"{t} F1 ({n.get(t, {}).get('pages', 0)})" for t in types)
                     + " | with ↑ | without ↓ | empty |")
        lines.append("| --- " * (len(types) + 7) + "|")
        for name, r in text.items():
            lines.append(f"| {name} | {f3(r['P'])} | {f3(r['R'])} | {f3(r['F1'])} | "
                         + " | ".join(f3(r["by_type"].get(t, {}).get("F1", float("nan"))) for t in types)
                         + f" | {f3(r['with_rate'])} | {f3(r['without_rate'])} | {r['empty_outputs']} |")
        lines.append("")
    if meta:
        lines.append("| system | field | right / gold non-null | accuracy | invented / gold null |")
        lines.append("| --- | --- | --- | --- | --- |")
        for name, r in meta.items():
            for f in ("title", "author", "author_strict", "date"):
                x = r[f]
                lines.append(f"| {name} | {f} | {x['right']} / {x['gold_non_null']} | {f3(x['accuracy'])} | "
                             f"{x['invented']} / {x['gold_null']} |")
        lines.append("")
    if md:
        lines.append("| system | kind | gold | output | found | recall | precision |")
        lines.append("| --- | --- | --- | --- | --- | --- | --- |")
        for name, r in md.items():
            for k in KINDS:
                x = r[k]
                lines.append(f"| {name} | {k} | {x['gold']} | {x['output']} | {x['found']} | "
                             f"{f3(x['recall'])} | {f3(x['precision'])} |")
        lines.append("")
    return "\n".join(lines)


def unique_names(dirs):
    names = {}
    for d in dirs:
        name = d.resolve().name
        while name in names:
            name += "'"
        names[name] = d
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdirs", nargs="*", type=Path, help="folders of NNNN.txt outputs (one system each)")
    ap.add_argument("--gt", type=Path, default=DEFAULT_GT, help="ground-truth folder (NNNN.json); default %(default)s")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of Markdown tables")
    ap.add_argument("--per-page", type=Path, metavar="FILE", help="write per-page text scores as TSV")
    ap.add_argument("--metadata", type=Path, action="append", default=[], metavar="DIR",
                    help="score DIR/NNNN.meta.json against title, author, publish_date (repeatable)")
    ap.add_argument("--markdown", type=Path, action="append", default=[], metavar="DIR",
                    help="score DIR/NNNN.md structure against main_content_markdown (repeatable)")
    ap.add_argument("--gold-md-counts", action="store_true", help="print the gold Markdown item counts and exit")
    args = ap.parse_args()
    pages = load_gt(args.gt)
    if args.gold_md_counts:
        c = Counter()
        for pg in pages:
            for (kind, _), n in md_items(pg["markdown"]).items():
                c[kind] += n
        print(json.dumps({k: c[k] for k in KINDS}))
        return
    if not (args.outdirs or args.metadata or args.markdown):
        ap.error("give at least one OUTDIR, --metadata DIR or --markdown DIR")
    for d in [*args.outdirs, *args.metadata, *args.markdown]:
        if not d.is_dir():
            sys.exit(f"wcxb_score.py: {d} is not a folder")
    text, per_page = {}, []
    for name, d in unique_names(args.outdirs).items():
        text[name], rows = score_text(pages, d)
        per_page += [dict(system=name, **r) for r in rows]
    meta = {name: score_metadata(pages, d) for name, d in unique_names(args.metadata).items()}
    md = {name: score_markdown(pages, d) for name, d in unique_names(args.markdown).items()}
    if args.per_page:
        cols = ["system", "page", "type", "P", "R", "F1", "out_tokens", "gold_tokens",
                "with_found", "with_total", "without_found", "without_total"]
        with args.per_page.open("w", encoding="utf-8") as fh:
            fh.write("\t".join(cols) + "\n")
            for r in per_page:
                fh.write("\t".join(f"{r[c]:.4f}" if isinstance(r[c], float) else str(r[c]) for c in cols) + "\n")
    if args.json:
        print(json.dumps({"text": text, "metadata": meta, "markdown": md}, indent=1))
    else:
        print(markdown_report(text, meta, md))


if __name__ == "__main__":
    main()
