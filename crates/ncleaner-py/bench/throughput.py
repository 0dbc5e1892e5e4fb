#!/usr/bin/env python3
"""Throughput of the Python module against the CLI, Resiliparse and Trafilatura, and of the Spark job.

Usage (after scripts/python-setup, `pip install -r crates/ncleaner-py/bench/requirements-bench.txt`
and `cargo build --release -p ncleaner-cli`):

    .venv/bin/python crates/ncleaner-py/bench/throughput.py [--spark] [--repeat 3]

Pages: the training pool (cleaneval/dev + cleaneval/train, 398 pages) read
into memory. MB/s = input bytes / wall seconds, best of --repeat runs; all
rows are measured in one run so that their ratios hold on a loaded machine.
The CLI is timed as a process over the page folders (start-up, reading files,
writing JSONL to /dev/null included); the module over bytes in memory.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(HERE.parent / "tests"))

import ncleaner  # noqa: E402
from conftest import shared_data, write_warc  # noqa: E402


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--spark", action="store_true", help="also time the Spark job on local[1] and local[2]")
    ap.add_argument("--no-peers", action="store_true")
    args = ap.parse_args()

    data = shared_data()
    folders = [data / "cleaneval" / "dev", data / "cleaneval" / "train"]
    paths = sorted(p for f in folders for p in f.glob("*.html"))
    pages = [p.read_bytes() for p in paths]
    mb = sum(map(len, pages)) / 1e6
    print(f"pages: {len(pages)}, {mb:.2f} MB (cleaneval dev + train); cores: {os.cpu_count()}; best of {args.repeat}")
    rows = []

    def row(name, seconds, threads):
        rows.append((name, threads, seconds, mb / seconds))
        print(f"  {name:<48} {threads:>2} thr  {seconds:7.3f} s  {mb / seconds:7.2f} MB/s", flush=True)

    cli = Path(os.environ.get("NCLEANER_BIN", REPO / "target/release/ncleaner"))
    for j in (1, 2):
        cmd = [str(cli), "clean", "--input", "html", "--format", "jsonl", "-j", str(j), *map(str, folders)]
        row(f"CLI `ncleaner clean --format jsonl -j {j}`", best(lambda: subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL), args.repeat), j)

    c = ncleaner.Cleaner()
    row("module Cleaner.clean (loop)", best(lambda: [c.clean(b) for b in pages], args.repeat), 1)
    row("module Cleaner.clean_many(threads=1)", best(lambda: c.clean_many(pages, threads=1), args.repeat), 1)
    row("module Cleaner.clean_many(threads=2)", best(lambda: c.clean_many(pages, threads=2), args.repeat), 2)

    if not args.no_peers:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding
        from resiliparse.parse.html import HTMLTree

        def resiliparse_all():
            for b in pages:
                tree = HTMLTree.parse(bytes_to_str(b, detect_encoding(b)))
                extract_plain_text(tree, main_content=True)

        row("Resiliparse extract_plain_text(main_content=True)", best(resiliparse_all, args.repeat), 1)

        import trafilatura

        row("Trafilatura extract (defaults)", best(lambda: [trafilatura.extract(b) for b in pages], 1), 1)

    # The Spark task's loop without Spark: warcio reads (and gunzips) the
    # WARC files, each HTML record is cleaned. The per-core rate of a whole
    # job, start-up aside. 4 files, the pages 4 times over: 4 x 15 MB.
    tmp = Path(tempfile.mkdtemp(prefix="ncleaner-bench-"))
    try:
        pairs = list(zip(paths, pages)) * 4
        n = 4
        warcs = [write_warc(tmp / f"{i}.warc.gz", pairs[i::n]) for i in range(n)]
        wmb = mb * 4
        sys.path.insert(0, str(REPO / "examples"))
        import spark_clean_warc as job_module

        class Count:
            def __init__(self):
                self.value = 0

            def add(self, k):
                self.value += k

        options = dict(model="en", method="ncleaner", threshold=None, min_probability=None)

        def task_loop():
            counters = {"records": Count(), "failed_files": Count()}
            for _ in job_module.clean_partition([str(w) for w in warcs], options, counters):
                pass
            assert counters["records"].value == len(pairs)

        s = best(task_loop, args.repeat)
        rows.append(("warcio + clean, the Spark task's loop without Spark (4 WARC.gz)", 1, s, wmb / s))
        print(f"  warcio + clean loop: {s:.3f} s, {wmb / s:.2f} MB/s of HTML", flush=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise

    if args.spark:
        try:
            manifest = tmp / "warc.paths"
            manifest.write_text("".join(f"{w}\n" for w in warcs))
            tiny = tmp / "tiny.paths"
            tiny.write_text(f"{write_warc(tmp / 'tiny.warc.gz', pairs[:1])}\n")
            submit = Path(sys.executable).parent / "spark-submit"
            env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)

            def job(master, man):
                out = tmp / "out"
                shutil.rmtree(out, ignore_errors=True)
                subprocess.run(
                    [str(submit), "--master", master, "--conf", "spark.ui.enabled=false",
                     str(REPO / "examples/spark_clean_warc.py"), str(man), str(out)],
                    env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )

            for k in (1, 2):
                master = f"local[{k}]"
                whole = best(lambda: job(master, manifest), args.repeat)
                start = best(lambda: job(master, tiny), args.repeat)
                for name, sec in [
                    (f"Spark job {master}, 4 WARC.gz (wall incl. JVM start)", whole),
                    (f"Spark job {master}, minus a 1-page job's wall", whole - start),
                ]:
                    rows.append((name, k, sec, wmb / sec))
                    print(f"  {name}: {sec:.3f} s, {wmb / sec:.2f} MB/s", flush=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(tmp, ignore_errors=True)

    base = {r[0]: r for r in rows}
    cli1 = base["CLI `ncleaner clean --format jsonl -j 1`"][3]
    mod1 = base["module Cleaner.clean_many(threads=1)"][3]
    loop = base["module Cleaner.clean (loop)"][3]
    print(f"module overhead vs CLI, 1 thread: clean_many {100 * (1 - mod1 / cli1):+.1f}%, clean loop {100 * (1 - loop / cli1):+.1f}% (negative: module faster)")
    print()
    print(f"(Spark and warcio rows: {mb * 4:.2f} MB of HTML in 4 WARC.gz files; other rows: {mb:.2f} MB)")
    print("| what | threads | seconds | MB/s |")
    print("|---|---:|---:|---:|")
    for name, threads, s, rate in rows:
        print(f"| {name} | {threads} | {s:.3f} | {rate:.2f} |")


if __name__ == "__main__":
    main()
