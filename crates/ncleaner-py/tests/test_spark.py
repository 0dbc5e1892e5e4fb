"""examples/spark_clean_warc.py on local[2] over WARC files built from the shared pages, against the CLI;
its record function alone, without Spark, on pages of three languages."""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq

from conftest import REPO, cli_binary, dev_pages, page_url, write_warc

JOB = REPO / "examples" / "spark_clean_warc.py"


def job_module():
    """The example as a module: its record function runs without Spark (pyspark is imported in
    ``main`` and ``schema`` only)."""
    spec = importlib.util.spec_from_file_location("spark_clean_warc", JOB)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def article(lang, title, paragraphs):
    """A small news page of our own: a title and its paragraphs."""
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title></head>'
        f"<body><h1>{title}</h1>{body}</body></html>"
    ).encode()


# (file name, page, the model `ncleaner clean` routes it to by default)
PAGES = [
    (
        "zh.html",
        article(
            "zh-CN",
            "我国北方将迎大风降温天气",
            [
                "新华社北京12月15日电，记者从国家气象局获悉，受强冷空气影响，未来三天我国北方大部分地区将出现大风降温天气，气温普遍下降八到十度。",
                "气象专家提醒，此次降温过程持续时间较长，影响范围较广，各地应提前做好防寒保暖工作，特别是老人和儿童要注意添加衣物。",
            ],
        ),
        "multi",
    ),
    (
        "ru.html",
        article(
            "ru",
            "Москва построит три новые линии метро",
            [
                "Правительство Москвы утвердило новую программу развития общественного транспорта, которая предусматривает строительство трёх новых линий метро.",
                "Как сообщили в пресс-службе столичного департамента транспорта, на реализацию программы будет направлено более ста миллиардов рублей.",
            ],
        ),
        "multi",
    ),
    (
        "en.html",
        article(
            "en",
            "Council approves record budget",
            [
                "The city council approved next year's budget on Thursday, with record spending on school repairs, new cycle lanes and the tram network.",
                "The mayor said the largest project would be the rebuilding of the main interchange, due to be finished before the end of next year.",
            ],
        ),
        "en",
    ),
    (
        "de.html",
        article(
            "de",
            "Stadtrat beschließt Rekordhaushalt",
            [
                "Der Stadtrat hat am Donnerstag den Haushalt für das kommende Jahr beschlossen, der Rekordausgaben für die Sanierung von Schulen und neue Radwege vorsieht.",
                "Der Bürgermeister sagte, das größte Vorhaben sei der Umbau des Hauptbahnhofs, der bis zum Ende des nächsten Jahres abgeschlossen sein soll.",
            ],
        ),
        "en-nonlex",
    ),
]


def languages_warc(tmp_path):
    """A small WARC file of the pages of PAGES."""
    return write_warc(tmp_path / "languages.warc.gz", [(Path("languages") / name, page) for name, page, _ in PAGES])


class Counter:
    """Stands for a Spark accumulator."""

    def __init__(self):
        self.value = 0

    def add(self, n):
        self.value += n


def model_column(module, warc, **argv_options):
    """The record function's rows for `warc`, cleaned with the options the job's command line
    gives (``--model`` and the rest), as {file name: the row's model column}."""
    args = []
    for model in argv_options.pop("model", []):
        args += ["--model", model]
    if argv_options.pop("no_route", False):
        args.append("--no-route")
    assert not argv_options, argv_options
    options = module.options_of(module.parser().parse_args(["warc.paths", "out", *args]))
    module._CLEANER = None  # a new cleaner for these options
    counters = {"records": Counter(), "failed_files": Counter()}
    rows = list(module.clean_partition([str(warc)], options, counters))
    assert counters["records"].value == len(PAGES) and counters["failed_files"].value == 0
    columns = [name for name, _, _ in module.COLUMNS]
    return {Path(row[0]).name: dict(zip(columns, row))["model"] for row in rows}


def test_record_function_writes_the_model_that_cleaned_each_page(tmp_path):
    """Without Spark: the `model` column is the model that cleaned the page, routed as `ncleaner
    clean` routes it (Chinese and Russian to multi, German to en-nonlex), not the option given."""
    module = job_module()
    warc = languages_warc(tmp_path)
    assert model_column(module, warc) == {name: model for name, _, model in PAGES}
    # One model asked for: the others' pages still go to the fallback, as `clean --model en`.
    routed = model_column(module, warc, model=["en"])
    assert routed["en.html"] == "en" and routed["zh.html"] == "en-nonlex", routed
    # Without routing, the one model asked for cleans every page and is named.
    assert set(model_column(module, warc, model=["en-nonlex"], no_route=True).values()) == {"en-nonlex"}
    assert set(model_column(module, warc, no_route=True).values()) == {"en"}


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
        assert row["model"] == want[url]["model"], url


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


def test_spark_job_writes_the_model_that_cleaned_each_page(tmp_path):
    """On Spark: the `model` column of a Chinese page is `multi`, of each page the CLI's."""
    warc = languages_warc(tmp_path)
    manifest = tmp_path / "warc.paths"
    manifest.write_text(f"{warc}\n")
    out = tmp_path / "out.parquet"
    run = spark_submit(str(manifest), str(out))
    assert run.returncode == 0, run.stderr[-3000:]
    rows = {Path(r["url"]).name: r for r in pq.read_table(out).to_pylist()}
    assert rows["zh.html"]["model"] == "multi"
    assert {name: r["model"] for name, r in rows.items()} == {name: model for name, _, model in PAGES}
