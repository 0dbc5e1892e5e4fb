#!/usr/bin/env python3
"""Writes a WARC (gzip per record, as Common Crawl does) of HTML pages, for tests and benchmarks.

Usage: make-warc.py [--min-bytes N] [--warcinfo] OUT.warc.gz PAGE_OR_DIR...

Every page becomes a `request` + `response` record pair (HTTP/1.1 200,
`Content-Type: text/html`, charset unset so that the page's own meta or
statistics decide), with WARC-Target-URI `http://example.org/REL`. With
--min-bytes the pages are repeated (with new record IDs and URIs) until that
many bytes of HTML are written. A page stored gzip-compressed (`NAME.gz`,
as WCXB's pages are) is written as its HTML. Python's standard library only.
"""
import argparse
import gzip
import os
import sys
import uuid
from pathlib import Path


def record(kind, uri, block, refers=None):
    fields = [
        "WARC/1.0",
        f"WARC-Type: {kind}",
        f"WARC-Record-ID: <urn:uuid:{uuid.uuid4()}>",
        "WARC-Date: 2024-01-01T00:00:00Z",
    ]
    if uri:
        fields.append(f"WARC-Target-URI: {uri}")
    if refers:
        fields.append(f"WARC-Concurrent-To: {refers}")
    ctype = {"response": "application/http; msgtype=response",
             "request": "application/http; msgtype=request",
             "warcinfo": "application/warc-fields"}[kind]
    fields += [f"Content-Type: {ctype}", f"Content-Length: {len(block)}"]
    return ("\r\n".join(fields) + "\r\n\r\n").encode() + block + b"\r\n\r\n"


def page(name, raw):
    if name.endswith(".gz") and raw[:2] == b"\x1f\x8b":
        return name[:-3], gzip.decompress(raw)
    return name, raw


def pages(args):
    for a in args:
        p = Path(a)
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                if f.is_file():
                    yield page(f.relative_to(p).as_posix(), f.read_bytes())
        else:
            yield page(p.name, p.read_bytes())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min-bytes", type=int, default=0)
    ap.add_argument("--warcinfo", action="store_true", help="start with a warcinfo record")
    ap.add_argument("out")
    ap.add_argument("inputs", nargs="+")
    a = ap.parse_args()
    docs = list(pages(a.inputs))
    if not docs:
        sys.exit("make-warc: no pages in " + " ".join(a.inputs))
    written = 0
    rounds = 0
    with open(a.out, "wb") as raw:
        if a.warcinfo:
            raw.write(gzip.compress(record("warcinfo", None, b"software: make-warc.py\r\n")) if a.out.endswith(".gz") else record("warcinfo", None, b"software: make-warc.py\r\n"))
        while True:
            for rel, html in docs:
                uri = f"http://example.org/{rounds}/{rel}"
                req = f"GET /{rounds}/{rel} HTTP/1.1\r\nHost: example.org\r\n\r\n".encode()
                head = f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {len(html)}\r\n\r\n".encode()
                for rec in (record("request", uri, req), record("response", uri, head + html)):
                    raw.write(gzip.compress(rec, compresslevel=6) if a.out.endswith(".gz") else rec)
                written += len(html)
            rounds += 1
            if written >= a.min_bytes:
                break
    print(f"make-warc: {a.out}: {len(docs) * rounds} responses, {written} bytes of HTML", file=sys.stderr)


if __name__ == "__main__":
    main()
