#!/usr/bin/env python3
"""Runs the main-text extractors people use on a folder of pages, for comparison.

Each system's output for PAGES/REL/NAME.html (or NAME.html.gz, gzip) is written
to OUT/SYSTEM/REL/NAME.txt, one `<p>` segment per output line (the convention
of the reference figures in ../shared/data/README.md), ready for `ncleaner eval`.
With --plain the system's text is written as it returned it (no markers): the
form the WCXB metric reads (scripts/wcxb-peers, scripts/wcxb_score.py).
With --trafilatura-extras, trafilatura also writes NAME.meta.json
({"title","author","date"} from trafilatura.extract_metadata, defaults) and
NAME.md (trafilatura.extract(html, output_format="markdown"), defaults); their
time is reported apart from the text extraction's.

Systems (from PyPI; scripts/peers makes the venv): trafilatura, readability-lxml,
justext, resiliparse (main content), resiliparse-raw (whole-page text).

Choices, written down because they change the figures:
- The CleanEval pseudo-tag first line `<text id=...>` is removed before a page
  is given to any system (it is not part of the page).
- Every system gets the same Unicode text, decoded with Resiliparse's
  `detect_encoding` + `bytes_to_str` (HTML meta first, then statistics), so that
  the comparison is of extraction, not of charset guessing. jusText, which only
  takes bytes, gets that text re-encoded as UTF-8 with the encoding named.
- C0 control characters other than tab and newlines become spaces (lxml,
  under readability and jusText, refuses them).
- readability's summary (HTML) is rendered to lines of text by Resiliparse
  without its main-content filter.
- Default settings of every system; jusText with its English stoplist, or
  the stoplist of the pages' language given with --language (without one
  for that language, its language-independent mode).
- A system that raises or returns nothing for a page writes an empty file
  (it costs recall, like a lost document).
"""

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

# lxml (readability, jusText) refuses NUL and other C0 controls; they carry no text.
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
PSEUDO = re.compile(rb"^\s*<text\b[^>]*>[ \t]*\r?\n?", re.I)


def load(path):
    raw = path.read_bytes()
    if path.name.lower().endswith(".gz"):
        import gzip

        raw = gzip.decompress(raw)
    m = PSEUDO.match(raw)
    if m:
        raw = raw[m.end():]
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding

    return CONTROL.sub(" ", bytes_to_str(raw, detect_encoding(raw)))


def run_trafilatura(html):
    import trafilatura

    return trafilatura.extract(html) or ""


def run_readability(html):
    from readability import Document

    # The summary is HTML; Resiliparse (no main-content filter) renders it to
    # text with one line per block, the same renderer for every HTML output.
    return run_resiliparse(Document(html).summary(html_partial=True), main=False)


# jusText's stoplist for a page's language (--language); English by default.
# A language it has no stoplist for (Chinese, Japanese, ...) runs in the
# language-independent mode its documentation gives: an empty stoplist with
# both stop-word density thresholds at 0.
JUSTEXT_STOPLISTS = {"en": "English", "ru": "Russian", "pl": "Polish", "el": "Greek", "de": "German",
                     "fr": "French", "es": "Spanish", "it": "Italian", "pt": "Portuguese", "nl": "Dutch",
                     "cs": "Czech", "uk": "Ukrainian", "tr": "Turkish"}
JUSTEXT_LANGUAGE = "en"


def run_justext(html):
    import justext

    name = JUSTEXT_STOPLISTS.get(JUSTEXT_LANGUAGE)
    if name:
        paras = justext.justext(html.encode("utf-8"), justext.get_stoplist(name), encoding="utf-8")
    else:
        paras = justext.justext(html.encode("utf-8"), frozenset(), stopwords_low=0, stopwords_high=0, encoding="utf-8")
    return "\n".join(p.text for p in paras if not p.is_boilerplate)


def run_resiliparse(html, main=True):
    from resiliparse.extract.html2text import extract_plain_text

    return extract_plain_text(html, main_content=main)


def trafilatura_extras(html):
    """(metadata dict, Markdown) from trafilatura at its defaults."""
    import trafilatura

    m = trafilatura.extract_metadata(html)
    meta = {k: (getattr(m, k, None) or None) if m is not None else None for k in ("title", "author", "date")}
    return meta, trafilatura.extract(html, output_format="markdown") or ""


PAGE = re.compile(r"\.html?(\.gz)?$", re.I)


def page_stem(rel):
    """REL/NAME for REL/NAME.html, .htm, .html.gz."""
    return rel.with_name(PAGE.sub("", rel.name))


SYSTEMS = {
    "trafilatura": run_trafilatura,
    "readability": run_readability,
    "justext": run_justext,
    "resiliparse": run_resiliparse,
    "resiliparse-raw": lambda h: run_resiliparse(h, main=False),
}


def to_cleaneval(text):
    return "".join(f"<p> {line.strip()}\n" for line in text.splitlines() if line.strip())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pages", type=Path, help="folder of pages (*.html, *.htm, *.html.gz; searched recursively)")
    ap.add_argument("out", type=Path, help="output folder; OUT/SYSTEM/REL/NAME.txt")
    ap.add_argument("--prefix", default="", help="write OUT/SYSTEM/PREFIX/REL/NAME.txt (ncleaner matrix reads PREFIX = POOL/DIR)")
    ap.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated, of: " + ", ".join(SYSTEMS))
    ap.add_argument("--plain", action="store_true", help="write each system's text as returned, no <p> markers")
    ap.add_argument("--trafilatura-extras", action="store_true",
                    help="trafilatura also writes NAME.meta.json and NAME.md")
    ap.add_argument("--language", default="en",
                    help="ISO 639-1 language of the pages, for jusText's stoplist (default en)")
    args = ap.parse_args()
    global JUSTEXT_LANGUAGE
    JUSTEXT_LANGUAGE = args.language
    systems = [s for s in args.systems.split(",") if s]
    for s in systems:
        if s not in SYSTEMS:
            sys.exit(f"peers.py: unknown system {s!r}")
    pages = sorted(p for p in args.pages.rglob("*") if p.is_file() and PAGE.search(p.name))
    if not pages:
        sys.exit(f"peers.py: no pages under {args.pages}")
    htmls = [(p, load(p)) for p in pages]
    for s in systems:
        fn = SYSTEMS[s]
        t = time.perf_counter()
        failed = 0
        for p, html in htmls:
            try:
                text = fn(html)
            except Exception as e:  # a peer's failure is an empty output, counted
                print(f"peers.py: {s}: {p}: {type(e).__name__}: {e}", file=sys.stderr)
                text, failed = "", failed + 1
            stem = args.out / s / args.prefix / page_stem(p.relative_to(args.pages))
            stem.parent.mkdir(parents=True, exist_ok=True)
            stem.with_name(stem.name + ".txt").write_text(text if args.plain else to_cleaneval(text), encoding="utf-8")
        print(f"peers.py: {s}: {len(htmls)} pages in {time.perf_counter() - t:.1f} s, {failed} failed", file=sys.stderr)
        if s == "trafilatura" and args.trafilatura_extras:
            t, failed = time.perf_counter(), 0
            for p, html in htmls:
                try:
                    meta, md = trafilatura_extras(html)
                except Exception as e:
                    print(f"peers.py: trafilatura extras: {p}: {type(e).__name__}: {e}", file=sys.stderr)
                    meta, md, failed = {"title": None, "author": None, "date": None}, "", failed + 1
                stem = args.out / s / args.prefix / page_stem(p.relative_to(args.pages))
                stem.with_name(stem.name + ".meta.json").write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
                stem.with_name(stem.name + ".md").write_text(md, encoding="utf-8")
            print(f"peers.py: trafilatura metadata + markdown: {len(htmls)} pages in {time.perf_counter() - t:.1f} s, {failed} failed",
                  file=sys.stderr)


if __name__ == "__main__":
    main()
