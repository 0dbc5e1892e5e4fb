"""examples/spark_clean_warc.py on local[2] over WARC files built from the shared pages, against the CLI."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq

from conftest import REPO, cli_binary, dev_pages, page_url, write_warc

JOB = REPO / "examples" / "spark_clean_warc.py"


def spark_submit(*args, master="local[2]", env_extra=None):
    """Runs the job with the venv's spark-submit; the workers use this Python."""
    submit = Path(sys.executable).parent / "spark-submit"
    assert submit.is_file(), f"{submit} missing: pip install pyspark (scripts/python-setup)"
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    env.update(env_extra or {})
    return subprocess.run(
        [str(submit), "--master", master, "--conf", "spark.ui.enabled=false", str(JOB), *args],
        env=env,
        capture_output=True,
        text=True,
    )


def test_spark_job_matches_cli(tmp_path):
    pages = dev_pages()
    third = len(pages) // 3
    warcs = [
        write_warc(tmp_path / "a.warc.gz", pages[:third]),
        write_warc(tmp_path / "b.warc.gz", pages[third : 2 * third]),
        write_warc(tmp_path / "c.warc", pages[2 * third :], gz=False),
    ]
    manifest = tmp_path / "warc.paths"
    manifest.write_text("".join(f"{w}\n" for w in warcs))
    out = tmp_path / "out.parquet"

    run = spark_submit(str(manifest), str(out))
    assert run.returncode == 0, run.stderr[-3000:]
    # (Where the driver's stderr goes depends on how spark-submit was started: read both.)
    assert f"{len(pages)} HTML records cleaned, 0 files failed" in run.stdout + run.stderr

    table = pq.read_table(out)
    rows = table.to_pylist()
    assert len(rows) == len(pages)
    assert set(table.column_names) == {"url", "warc_record_id", "warc_file", "text", "words_in", "words_out", "model"}
    assert len({r["warc_file"] for r in rows}) == 3

    # The CLI on the same WARC files, so that each page has the same URL (the
    # page type reads the URL's shape).
    cli = subprocess.run(
        [str(cli_binary()), "clean", "--format", "jsonl", *map(str, warcs)],
        check=True,
        capture_output=True,
    )
    want = {}
    for line in cli.stdout.splitlines():
        rec = json.loads(line)
        want[rec["url"]] = rec
    by_url = {r["url"]: r for r in rows}
    assert set(by_url) == {page_url(p) for p, _ in pages}
    for url, row in by_url.items():
        assert row["text"] == want[url]["text"], url
        assert (row["words_in"], row["words_out"]) == (want[url]["words_in"], want[url]["words_out"]), url
        assert row["model"] == "en"


def test_spark_job_reports_a_broken_file(tmp_path):
    good = write_warc(tmp_path / "good.warc.gz", dev_pages(3))
    broken = tmp_path / "broken.warc.gz"
    broken.write_bytes(b"<html>not a WARC file</html>\n")
    empty = tmp_path / "empty.warc.gz"
    empty.write_bytes(b"\x1f\x8b\x08\x00garbage")  # warcio reads no record and no error from it
    manifest = tmp_path / "warc.paths"
    manifest.write_text(f"{good}\n{broken}\n{empty}\n{tmp_path / 'missing.warc.gz'}\n")
    run = spark_submit(str(manifest), str(tmp_path / "out"))
    assert run.returncode == 1
    log = run.stdout + run.stderr
    assert "3 HTML records cleaned, 3 files failed" in log
    for name in ["broken.warc.gz", "empty.warc.gz", "missing.warc.gz"]:
        assert f"{name}: " in log, name
    assert pq.read_table(tmp_path / "out").num_rows == 3
