"""Parquet with pyarrow: `ncleaner clean -o out.parquet` read back, and a Hugging
Face-style Parquet of pages (several row groups, an integer id, a url, the page
in `html`) cleaned in place."""

import json
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq

from conftest import cli_binary, dev_pages


def clean(*args):
    return subprocess.run([str(cli_binary()), "clean", "-q", *args], capture_output=True)


def test_a_dataset_of_pages_is_cleaned_into_parquet(tmp_path):
    pages = dev_pages(40)
    # As `datasets.Dataset.to_parquet` writes a dataset of crawled pages:
    # an int64 id, strings, several row groups; one row without a page.
    table = pa.table(
        {
            "id": pa.array(range(1000, 1000 + len(pages) + 1), pa.int64()),
            "url": [f"https://cleaneval.test/{p.name}" for p, _ in pages] + ["https://x.test/none"],
            "html": [b.decode("utf-8", "replace") for _, b in pages] + [None],
            "crawl_date": ["2024-01-01"] * (len(pages) + 1),
        }
    )
    src = tmp_path / "pages.parquet"
    pq.write_table(table, src, row_group_size=7)
    assert pq.ParquetFile(src).num_row_groups == 6

    out = tmp_path / "out.parquet"
    run = clean("--markdown", "-o", str(out), str(src))
    assert run.returncode == 1, run.stderr  # the row without a page failed, the rest were written
    assert "1 of 41 documents failed" in run.stderr.decode()
    jsonl = tmp_path / "out.jsonl"
    clean("--markdown", "-o", str(jsonl), str(src))

    got = pq.read_table(out)
    assert got.column_names == [
        "id", "url", "text", "words_in", "words_out", "language", "model",
        "metadata", "page_quality", "page_type", "markdown", "truncated", "error",
        "skipped",
    ]
    rows = got.to_pylist()
    lines = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len(rows) == len(lines) == len(pages) + 1
    # Each row is the JSON Lines record, the fields it leaves out None.
    for row, line in zip(rows, lines):
        assert {k: v for k, v in row.items() if k in line} == line
        assert all(v is None for k, v in row.items() if k not in line)
    assert rows[0]["id"] == "1000" and rows[0]["url"] == f"https://cleaneval.test/{pages[0][0].name}"
    assert rows[0]["text"] and rows[0]["markdown"] and rows[0]["metadata"] is not None
    assert rows[-1]["id"] == str(1000 + len(pages)) and rows[-1]["text"] is None
    assert "no \"html\" or \"text\"" in rows[-1]["error"]

    # And the same pages as JSON Lines input give the same records.
    src_jsonl = tmp_path / "pages.jsonl"
    with open(src_jsonl, "w") as f:
        for r in table.to_pylist():
            f.write(json.dumps({k: (str(v) if k == "id" else v) for k, v in r.items() if v is not None}) + "\n")
    same = [json.loads(line) for line in clean("--format", "jsonl", "--markdown", str(src_jsonl)).stdout.splitlines()]
    assert len(same) == len(lines)
    for a, b in zip(same, lines):
        assert {k: v for k, v in a.items() if k != "error"} == {k: v for k, v in b.items() if k != "error"}


def test_parquet_from_standard_input_and_to_standard_output(tmp_path):
    table = pa.table({"text": ["Menu | Search\n\nA paragraph of a text dump that a reader came for, long enough to keep as text.\n"]})
    src = tmp_path / "dump.parquet"
    pq.write_table(table, src)
    run = subprocess.run(
        [str(cli_binary()), "clean", "-q", "--format", "parquet", "-"],
        stdin=open(src, "rb"),
        capture_output=True,
        check=True,
    )
    back = pq.read_table(pa.BufferReader(run.stdout)).to_pylist()
    assert back[0]["id"] == "-#0" and "paragraph of a text dump" in back[0]["text"]
