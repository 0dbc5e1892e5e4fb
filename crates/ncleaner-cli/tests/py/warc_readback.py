"""Reads a WARC written by `ncleaner clean --format warc` back with warcio.

Usage: warc_readback.py INPUT.warc[.gz] OUTPUT.warc[.gz]
Checks that every record of INPUT is in OUTPUT, in order, intact (type,
headers and payload bytes), and that each HTML response is followed by one
`conversion` record (WARC-Refers-To the response, Content-Type text/plain,
a UTF-8 payload); prints a JSON summary. Exits non-zero with the reason
when a check fails.
"""
import json
import sys

from warcio.archiveiterator import ArchiveIterator


def records(path):
    with open(path, "rb") as f:
        for r in ArchiveIterator(f, no_record_parse=False):
            yield r.rec_type, r.rec_headers.headers, r.content_stream().read()


def fail(msg):
    sys.exit(f"warc_readback: {msg}")


inp = list(records(sys.argv[1]))
out = list(records(sys.argv[2]))
i = 0
conversions = 0
for n, (rtype, headers, payload) in enumerate(inp):
    if i >= len(out):
        fail(f"input record {n} ({rtype}) missing from the output")
    otype, oheaders, opayload = out[i]
    if (otype, oheaders, opayload) != (rtype, headers, payload):
        fail(f"input record {n} ({rtype}) changed in the output (output record {i}: {otype})")
    i += 1
    if rtype == "response":
        rid = dict(headers)["WARC-Record-ID"]
        if i >= len(out) or out[i][0] != "conversion":
            fail(f"response {rid} is not followed by a conversion record")
        ctype, cheaders, cpayload = out[i]
        h = dict(cheaders)
        if h.get("WARC-Refers-To") != rid:
            fail(f"conversion after {rid} refers to {h.get('WARC-Refers-To')}")
        if not h.get("Content-Type", "").startswith("text/plain"):
            fail(f"conversion after {rid} has Content-Type {h.get('Content-Type')}")
        cpayload.decode("utf-8")
        conversions += 1
        i += 1
if i != len(out):
    fail(f"{len(out) - i} extra record(s) at the end of the output")
print(json.dumps({"input": len(inp), "output": len(out), "conversions": conversions}))
