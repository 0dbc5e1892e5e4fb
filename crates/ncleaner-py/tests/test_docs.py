"""Every example of README.md and GUIDE.md runs as written.

Each fenced block in ``python``, ``sh``, ``shell`` or ``bash`` is a test,
named by its file and line (``README.md:112``). It runs in a folder of its
own that holds the files the examples name (below), with the ncleaner CLI
the tests use ($NCLEANER_BIN) and this venv's ``python`` and ``pip`` first
on PATH: shell blocks with ``bash -e -o pipefail``, Python blocks as a
script file (as a reader saves and runs one, so that ``if __name__ ==
"__main__":`` guards work as they do for the reader). A block fails when it
exits non-zero, runs longer than ``TIMEOUT`` seconds (an example that hangs),
or, for a Python block that prints, prints a blank line (an empty text: a
page the cleaner emptied shows nothing of what the example is about).

A block that cannot run here is marked in the Markdown, on the line before
its fence (an HTML comment, which renders as nothing), with why:

- ``<!-- snippet: skip (REASON) -->``: not run (a release build, a cluster);
  ``test_every_block_is_run_or_marked`` counts them and fails on a mark
  without a reason;
- ``<!-- snippet: server -->``: run with ``ncleaner serve`` listening; the
  one change made to such a block is the server's port, ``8080`` in the
  text, which becomes the port the test's server got.

The folder of a block holds: ``examples/`` (the repository's), ``page.html``
(the example page), ``saved-pages/`` (a few pages), ``crawl/`` (WARC.gz files
of those pages), ``CC-MAIN-00000.warc.gz`` (the same as one WARC.gz) and
``pages.parquet`` (the pages in an ``html`` column, with ``id`` and ``url``).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import REPO, cli_binary

DOCS = ("README.md", "GUIDE.md")
RUN = {"python": "python", "sh": "sh", "shell": "sh", "bash": "sh"}
MARK = re.compile(r"^<!--\s*snippet:\s*(\w+)\s*(?:\((.*)\))?\s*-->$")
TIMEOUT = 180


@dataclass
class Block:
    """A fenced block of a Markdown file."""

    file: str
    line: int
    lang: str
    code: str
    mark: str | None
    reason: str | None

    @property
    def name(self) -> str:
        return f"{self.file}:{self.line}"


def blocks(file: str) -> list[Block]:
    """The fenced blocks of a Markdown file of the repository, with the
    mark on the line before each (blank lines between allowed)."""
    lines = (REPO / file).read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        fence = re.match(r"^(```+|~~~+)\s*([\w-]*)", lines[i])
        if not fence:
            i += 1
            continue
        start, lang = i, fence.group(2).lower()
        j = i + 1
        while j < len(lines) and not lines[j].startswith(fence.group(1)):
            j += 1
        code = "\n".join(lines[i + 1 : j]) + "\n"
        k = start - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        m = MARK.match(lines[k].strip()) if k >= 0 else None
        out.append(
            Block(
                file,
                start + 1,
                lang,
                code,
                m.group(1) if m else None,
                (m.group(2) or "").strip() if m else None,
            )
        )
        i = j + 1
    return out


def runnable() -> list[Block]:
    return [b for f in DOCS for b in blocks(f) if b.lang in RUN]


def test_every_block_is_run_or_marked():
    found = runnable()
    by_file = {f: [b for b in found if b.file == f] for f in DOCS}
    for f, bs in by_file.items():
        assert bs, f"{f}: no python or shell example found: is the file where it was?"
    skipped = [b for b in found if b.mark == "skip"]
    for b in found:
        assert b.mark in (None, "skip", "server"), f"{b.name}: unknown snippet mark {b.mark!r}"
        if b.mark == "skip":
            assert b.reason, f"{b.name}: `<!-- snippet: skip (REASON) -->` needs its reason"
    ran = len(found) - len(skipped)
    print(f"\n{ran} examples run, {len(skipped)} marked skip:")
    for b in skipped:
        print(f"  {b.name}: {b.reason}")
    # A mark is the exception, for what cannot run here.
    for f, bs in by_file.items():
        assert any(b.mark != "skip" for b in bs), f"{f}: every example is marked skip"
    assert ran > len(skipped), f"{ran} examples run, {len(skipped)} skipped"


@pytest.fixture(scope="module")
def reader_files(tmp_path_factory):
    """The files the examples name, made once; each block gets a copy."""
    root = tmp_path_factory.mktemp("reader")
    shutil.copytree(REPO / "examples", root / "examples")
    shutil.copy(REPO / "examples/page.html", root / "page.html")
    snapshots = REPO / "crates/ncleaner-cli/tests/snapshots/pages"
    pages = [REPO / "examples/page.html"] + sorted(snapshots.glob("*.html"))[:5]
    saved = root / "saved-pages"
    saved.mkdir()
    for p in pages:
        shutil.copy(p, saved / p.name)
    crawl = root / "crawl"
    crawl.mkdir()
    write_warc(crawl / "CC-MAIN-00000.warc.gz", pages[:3])
    write_warc(crawl / "CC-MAIN-00001.warc.gz", pages[3:])
    write_warc(root / "CC-MAIN-00000.warc.gz", pages)
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(
        pa.table(
            {
                "id": [p.name for p in pages],
                "url": [f"https://example.com/{p.name}" for p in pages],
                "html": [p.read_text(encoding="utf-8") for p in pages],
            }
        ),
        root / "pages.parquet",
    )
    return root


def write_warc(path: Path, pages):
    """HTTP responses of `pages`, gzipped record by record, as Common Crawl writes them."""
    import io

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for p in pages:
            headers = StatusAndHeaders(
                "200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1"
            )
            writer.write_record(
                writer.create_warc_record(
                    f"https://example.com/{p.name}",
                    "response",
                    payload=io.BytesIO(p.read_bytes()),
                    http_headers=headers,
                    warc_headers_dict={"WARC-Identified-Payload-Type": "text/html"},
                )
            )


class Server:
    """`ncleaner serve` on a free port of the loopback."""

    def __init__(self, binary: Path, cwd: Path):
        self.proc = subprocess.Popen(
            [str(binary), "serve", "--addr", "127.0.0.1:0", "-j", "1"],
            cwd=cwd,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stderr.readline()
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            self.stop()
            pytest.fail(f"ncleaner serve did not start: {line!r}")
        self.port = m.group(1)

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.mark.parametrize("block", runnable(), ids=lambda b: b.name)
def test_example_runs_as_written(block: Block, reader_files: Path, tmp_path: Path):
    if block.mark == "skip":
        pytest.skip(f"{block.name}: marked skip ({block.reason})")
    binary = cli_binary()
    work = tmp_path / "work"
    shutil.copytree(reader_files, work)
    # `ncleaner` on PATH, whatever the binary's file is called.
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "ncleaner").symlink_to(binary.resolve())
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(bindir), str(Path(sys.executable).parent), env["PATH"]])
    env.pop("PYTHONPATH", None)
    code = block.code
    server = None
    if block.mark == "server":
        server = Server(binary, work)
        code = code.replace(":8080", f":{server.port}")
    if RUN[block.lang] == "python":
        (work / "example.py").write_text(code, encoding="utf-8")
        cmd = [sys.executable, "example.py"]
    else:
        (work / "example.sh").write_text(code, encoding="utf-8")
        cmd = ["bash", "-e", "-o", "pipefail", "example.sh"]
    # A session of its own, so that an example that hangs is ended with
    # every process it started (a pool's workers).
    proc = subprocess.Popen(
        cmd,
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
        pytest.fail(
            f"{block.name}: still running after {TIMEOUT} s (an example that hangs)\n"
            f"{block.code}\nstderr:\n{stderr[-3000:]}"
        )
    finally:
        if server:
            server.stop()
    shown = f"{block.name} ({block.lang}):\n{block.code}\nstdout:\n{stdout[-3000:]}\nstderr:\n{stderr[-3000:]}"
    assert proc.returncode == 0, f"exit status {proc.returncode}: {shown}"
    if RUN[block.lang] == "python" and "print(" in block.code:
        # An example that prints an empty text (a page the cleaner emptied)
        # shows nothing of what it is about.
        assert stdout.strip() and "" not in stdout.splitlines(), f"prints a blank line: {shown}"
