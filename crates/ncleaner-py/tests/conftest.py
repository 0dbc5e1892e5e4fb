"""Shared helpers of the Python tests: the shared data folder, the CLI binary, WARC files."""

import gzip
import io
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


def shared_data() -> Path:
    """The folder holding the evaluation pages: $NCLEANER_SHARED/data or ../shared/data.

    Fails (never skips) when it is missing, as the Rust tests do.
    """
    root = Path(os.environ.get("NCLEANER_SHARED", REPO.parent / "shared"))
    data = root / "data"
    if not (data / "cleaneval").is_dir():
        pytest.fail(
            f"shared data not found at {data} (set NCLEANER_SHARED to the folder that holds data/)"
        )
    return data


def cli_binary() -> Path:
    """The ncleaner CLI: $NCLEANER_BIN, else target/release or target/debug of the checkout."""
    env = os.environ.get("NCLEANER_BIN")
    candidates = [Path(env)] if env else [REPO / "target/release/ncleaner", REPO / "target/debug/ncleaner"]
    for c in candidates:
        if c.is_file():
            return c
    pytest.fail(
        "the ncleaner CLI was not found (tried "
        + ", ".join(map(str, candidates))
        + "); build it with `cargo build -p ncleaner-cli` or set NCLEANER_BIN"
    )


def dev_pages(n=None):
    """(path, bytes) of the cleaneval/dev pages, sorted by name."""
    pages = sorted((shared_data() / "cleaneval" / "dev").glob("*.html"))
    assert pages, "no pages in cleaneval/dev"
    pages = pages[:n] if n else pages
    return [(p, p.read_bytes()) for p in pages]


def page_url(path: Path) -> str:
    """The URL the tests give a shared page inside a WARC file."""
    return f"http://cleaneval.test/{path.parent.name}/{path.name}"


def write_warc(path: Path, pages, gz=True):
    """Writes `pages` ((path, bytes)) as HTTP response records of one WARC file."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=gz)
        for p, body in pages:
            headers = StatusAndHeaders(
                "200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1"
            )
            record = writer.create_warc_record(
                page_url(p),
                "response",
                payload=io.BytesIO(body),
                http_headers=headers,
                # As Common Crawl writes it; datatrove's reader filters on it.
                warc_headers_dict={"WARC-Identified-Payload-Type": "text/html"},
            )
            writer.write_record(record)
    return path
