#!/usr/bin/env python3
"""Clean the HTML records of WARC files on Spark with ncleaner, in the style of cc-pyspark.

Input: a manifest, one WARC(.gz) path per line (local paths, file://, or
http(s):// URLs such as https://data.commoncrawl.org/crawl-data/...; s3:// needs
boto3 on the workers). One Spark task per WARC file; inside ``mapPartitions``
each task streams its file with warcio and cleans every HTML response record
with ``ncleaner.Cleaner`` (loaded once per Python worker). Output: Parquet with
one row per HTML record: url, warc_record_id, warc_file, text, words_in,
words_out, model (the model that cleaned the page).

Pages are routed as ``ncleaner clean`` routes them: by default English pages to
``en``, Chinese, Russian, Polish and Greek ones to ``multi``, the others to
``en-nonlex``; ``--model`` (repeatable), ``--fallback-model`` and ``--no-route``
change it as they do for ``clean``.

Locally:
    spark-submit --master 'local[2]' examples/spark_clean_warc.py warc.paths out.parquet

On a cluster (the module must be installed on every worker, e.g. from a wheel
built with `maturin build --release -m crates/ncleaner-py/Cargo.toml`):
    spark-submit --master yarn --num-executors 100 --executor-cores 4 \\
        examples/spark_clean_warc.py s3://bucket/warc.paths s3://bucket/cleaned/
"""

import argparse
import sys

# The columns of the output, in order: (name, type, nullable).
COLUMNS = [
    ("url", "string", True),
    ("warc_record_id", "string", True),
    ("warc_file", "string", False),
    ("text", "string", False),
    ("words_in", "long", False),
    ("words_out", "long", False),
    ("model", "string", False),
]

_CLEANER = None


def schema():
    """The output's Spark schema (pyspark is imported here, so that the record
    function runs, and is tested, without Spark)."""
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    types = {"string": StringType(), "long": LongType()}
    return StructType([StructField(name, types[t], nullable) for name, t, nullable in COLUMNS])


def cleaner(options):
    """The worker's ncleaner.Cleaner: the model is loaded once per Python worker, not per record."""
    global _CLEANER
    if _CLEANER is None:
        import ncleaner

        _CLEANER = ncleaner.Cleaner(**options)
    return _CLEANER


def open_warc(path):
    """A binary stream of one WARC file, local or remote."""
    if path.startswith(("http://", "https://")):
        import urllib.request

        return urllib.request.urlopen(path)
    if path.startswith("s3://"):
        import boto3

        bucket, _, key = path[5:].partition("/")
        return boto3.client("s3").get_object(Bucket=bucket, Key=key)["Body"]
    if path.startswith("file://"):
        path = path[7:]
    return open(path, "rb")


def html_charset(content_type):
    """(is HTML, charset label) of an HTTP Content-Type value."""
    if not content_type:
        return False, None
    parts = [p.strip() for p in content_type.split(";")]
    is_html = parts[0].lower() in ("text/html", "application/xhtml+xml")
    charset = None
    for p in parts[1:]:
        if p.lower().startswith("charset="):
            charset = p[8:].strip("\"' ")
    return is_html, charset


def cleaned_by(result, options):
    """The model that cleaned a page: the one its language was routed to, or
    without routing the one model asked for ("en" when none was)."""
    if result.model is not None:
        return result.model
    return (options["model"] or ["en"])[0]


def clean_partition(paths, options, counters):
    """Cleans every HTML response record of the partition's WARC files: one row
    (the columns of ``COLUMNS``) per record."""
    from warcio.archiveiterator import ArchiveIterator
    from warcio.exceptions import ArchiveLoadFailed

    c = cleaner(options)
    for path in paths:
        try:
            seen = 0
            with open_warc(path) as stream:
                for record in ArchiveIterator(stream):
                    seen += 1
                    if record.rec_type != "response" or record.http_headers is None:
                        continue
                    is_html, charset = html_charset(record.http_headers.get_header("Content-Type"))
                    if not is_html:
                        continue
                    body = record.content_stream().read()
                    url = record.rec_headers.get_header("WARC-Target-URI")
                    r = c.clean(body, url=url, input="html", charset=charset)
                    counters["records"].add(1)
                    yield (
                        url,
                        record.rec_headers.get_header("WARC-Record-ID"),
                        path,
                        r.text,
                        r.words_in,
                        r.words_out,
                        cleaned_by(r, options),
                    )
            if seen == 0:
                # warcio reads some garbage as an empty archive; a WARC file always has records.
                raise ArchiveLoadFailed("no WARC records in it")
        except (ArchiveLoadFailed, OSError) as e:
            # A broken file is reported and counted; the job goes on with the others.
            counters["failed_files"].add(1)
            print(f"spark_clean_warc: {path}: {e}", file=sys.stderr)


def parser():
    """The job's command line."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("manifest", help="text file: one WARC(.gz) path or URL per line")
    ap.add_argument("output", help="output Parquet directory")
    ap.add_argument(
        "--model",
        action="append",
        default=None,
        help="en, multi, en-nonlex, or a model file present on every worker; repeat it to route "
        "among several (default: en and multi, as `ncleaner clean`)",
    )
    ap.add_argument(
        "--fallback-model",
        default="en-nonlex",
        help="the model of pages in a language no --model has (default: en-nonlex)",
    )
    ap.add_argument("--no-route", action="store_true", help="one model (--model) cleans every page")
    ap.add_argument("--method", default="ncleaner", choices=["ncleaner", "heuristics", "keep-all"])
    ap.add_argument("--threshold", type=float, default=None, help="bits of log-odds (default: the model's)")
    ap.add_argument("--min-probability", type=float, default=None)
    ap.add_argument("--output-partitions", type=int, default=None, help="Parquet files written (default: one per WARC file)")
    ap.add_argument("--mode", default="errorifexists", choices=["errorifexists", "overwrite", "append"])
    return ap


def options_of(args):
    """The ``ncleaner.Cleaner`` options of the parsed command line."""
    return dict(
        model=args.model,
        fallback_model=args.fallback_model,
        route=not args.no_route,
        method=args.method,
        threshold=args.threshold,
        min_probability=args.min_probability,
    )


def main(argv=None):
    args = parser().parse_args(argv)
    options = options_of(args)
    import ncleaner

    ncleaner.Cleaner(**options)  # a bad option fails on the driver, before any task starts

    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("ncleaner-clean-warc").getOrCreate()
    sc = spark.sparkContext
    # The manifest is small (90,000 lines for a whole crawl): read it on the driver.
    paths = [line.strip() for line in sc.textFile(args.manifest).collect() if line.strip()]
    if not paths:
        sys.exit(f"spark_clean_warc: {args.manifest}: no WARC paths")
    counters = {"records": sc.accumulator(0), "failed_files": sc.accumulator(0)}

    rdd = sc.parallelize(paths, numSlices=len(paths)).mapPartitions(
        lambda it: clean_partition(it, options, counters)
    )
    df = spark.createDataFrame(rdd, schema())
    if args.output_partitions:
        df = df.coalesce(args.output_partitions)
    df.write.mode(args.mode).parquet(args.output)
    print(
        f"spark_clean_warc: {len(paths)} WARC files, {counters['records'].value} HTML records cleaned, "
        f"{counters['failed_files'].value} files failed -> {args.output}",
        file=sys.stderr,
    )
    spark.stop()
    return 1 if counters["failed_files"].value else 0


if __name__ == "__main__":
    sys.exit(main())
