"""A real datatrove pipeline: WARC reader -> NCleanerExtractor -> JSONL writer, 2 local tasks."""

import gzip
import json

import pytest

import ncleaner
from conftest import dev_pages, write_warc

from datatrove.executor import LocalPipelineExecutor  # noqa: E402
from datatrove.pipeline.readers import WarcReader  # noqa: E402
from datatrove.pipeline.writers import JsonlWriter  # noqa: E402

from datatrove.pipeline.readers.warc import process_record  # noqa: E402
from warcio.archiveiterator import ArchiveIterator  # noqa: E402

from ncleaner.datatrove import NCleanerExtractor  # noqa: E402


def read_like_datatrove(warcs):
    """url -> text of what datatrove's WARC reader hands on: it decodes as
    UTF-8, else with cchardet's guess, and drops a record it cannot decode."""
    read = {}
    for warc in sorted(warcs.glob("*.warc.gz")):
        with open(warc, "rb") as f:
            for record in ArchiveIterator(f):
                doc = process_record(record)
                if doc is not None:
                    read[doc["url"]] = doc["text"]
    return read


def test_pipeline_with_two_tasks(tmp_path):
    pages = dev_pages()
    warcs = tmp_path / "warcs"
    warcs.mkdir()
    half = len(pages) // 2
    write_warc(warcs / "a.warc.gz", pages[:half])
    write_warc(warcs / "b.warc.gz", pages[half:])
    out = tmp_path / "out"

    LocalPipelineExecutor(
        pipeline=[
            WarcReader(str(warcs), glob_pattern="*.warc.gz"),
            NCleanerExtractor(batch_size=16, threads=1, drop_empty=False),
            JsonlWriter(str(out)),
        ],
        tasks=2,
        workers=2,
        logging_dir=str(tmp_path / "logs"),
    ).run()

    files = sorted(out.glob("*.jsonl.gz"))
    assert len(files) == 2, files  # one per task
    records = [json.loads(line) for f in files for line in gzip.open(f, "rt")]
    by_url = {r["metadata"]["url"]: r for r in records}

    read = read_like_datatrove(warcs)
    assert len(read) >= len(pages) - 5, "datatrove's reader dropped more pages than expected"
    assert len(records) == len(by_url) == len(read), "every record read comes through the extractor once"

    cleaner = ncleaner.Cleaner()
    for url, html in read.items():
        r = by_url[url]
        # With its URL, as the extractor cleans it: the page type reads the URL's shape.
        want = cleaner.clean(html, url=url)
        # The JSONL writer leaves out an empty text field.
        assert r.get("text", "") == want.text, url
        assert (r["metadata"]["words_in"], r["metadata"]["words_out"]) == (want.words_in, want.words_out)
        assert r["metadata"]["ncleaner_model"] == "en"
        m = want.metadata
        assert r["metadata"].get("title") == m.title, url
        assert r["metadata"].get("authors", []) == m.authors, url
        assert r["metadata"].get("date_published") == m.date_published, url
    assert sum(1 for r in records if r["metadata"].get("title")) > len(pages) // 2
    assert sum(1 for r in records if r.get("text")) > len(pages) // 2


def test_drop_empty_and_options(tmp_path):
    from datatrove.data import Document

    step = NCleanerExtractor(batch_size=2)
    docs = [
        Document(text="<ul><li><a href=/>Home</a></li></ul>", id="nav", metadata={}),
        Document(text=dev_pages(1)[0][1].decode("utf-8", "replace"), id="page", metadata={"url": "u"}),
    ]
    kept = list(step.run(iter(docs)))
    assert [d.id for d in kept] == ["page"]
    assert kept[0].metadata["words_out"] > 0
    assert kept[0].metadata["page_type"] in ("article", "forum", "product", "collection", "listing", "documentation", "service")
    assert 0.0 < kept[0].metadata["page_type_confidence"] <= 1.0
    body = NCleanerExtractor(roles="body", model="en").extract("<h1>A title of the page</h1>" + docs[1].text)
    assert not body.startswith("A title of the page")
    assert step.extract("<p>Home</p>") == ncleaner.Cleaner().clean("<p>Home</p>").text
    twice = "<p>The same sentence of this page is shown twice for the layout's sake.</p>" * 2
    both = NCleanerExtractor(min_probability=0.01, keep_repeats=True, model="en").extract(twice)
    once = NCleanerExtractor(min_probability=0.01, model="en").extract(twice)
    assert (both.count("shown twice"), once.count("shown twice")) == (2, 1)
    linked = "<p>Read <a href='/guide'>the guide to the tool</a> before you start it on your own pages.</p>"
    md = NCleanerExtractor(min_probability=0.01, model="en", markdown=True, links=True).extract(linked)
    assert "[the guide to the tool](/guide)" in md
    with pytest.raises(ValueError, match="method"):
        NCleanerExtractor(method="nope")
    with pytest.raises(ValueError, match="batch_size"):
        NCleanerExtractor(batch_size=0)


def test_a_document_that_is_no_document_is_dropped_and_counted():
    from datatrove.data import Document

    page = dev_pages(1)[0][1].decode("utf-8", "replace")
    # A body read as text that is an executable's bytes, one character a byte.
    binary = (b"\x7fELF\x02\x01\x01\x00" + bytes((i * 7) % 256 for i in range(4000))).decode("latin-1")
    step = NCleanerExtractor(batch_size=3, drop_empty=False)
    docs = [
        Document(text=page, id="a", metadata={}),
        Document(text=binary, id="elf", metadata={}),
        Document(text=page, id="b", metadata={}),
    ]
    kept = list(step.run(iter(docs)))
    assert [d.id for d in kept] == ["a", "b"]
    assert kept[0].text == kept[1].text and kept[0].text
    assert step.stats["not_a_document"].total == 1
    assert step.stats["extracted"].total == 2


def test_perplexity_filter_in_a_pipeline(tmp_path):
    from ncleaner.datatrove import PerplexityFilter

    pages = dev_pages(12)
    warcs = tmp_path / "warcs"
    warcs.mkdir()
    write_warc(warcs / "a.warc.gz", pages[:6])
    write_warc(warcs / "b.warc.gz", pages[6:])
    out = tmp_path / "out"
    LocalPipelineExecutor(
        pipeline=[
            WarcReader(str(warcs), glob_pattern="*.warc.gz"),
            NCleanerExtractor(method="keep-all", threads=1, drop_empty=False),
            PerplexityFilter(max_perplexity=8000, drop_empty=False),
            JsonlWriter(str(out)),
        ],
        tasks=2,
        workers=2,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    records = [json.loads(line) for f in sorted(out.glob("*.jsonl.gz")) for line in gzip.open(f, "rt")]
    read = read_like_datatrove(warcs)
    assert len(records) == len(read) >= 10
    cleaner = ncleaner.Cleaner(method="keep-all")
    lm = ncleaner.WordModel()
    removed = 0
    for r in records:
        want, n = lm.filter(cleaner.clean(read[r["metadata"]["url"]]).text, 8000)
        assert r.get("text", "") == want
        assert r["metadata"]["ppl_sentences_removed"] == n
        removed += n
    assert removed > 0, "some sentences of CleanEval pages are above 8000"


def test_perplexity_filter_drops_empty_and_checks_options():
    from datatrove.data import Document
    from ncleaner.datatrove import PerplexityFilter

    step = PerplexityFilter()
    docs = [
        Document(text="Qzx vbnm plok wruff jjj kkk zzq.", id="salad", metadata={}),
        Document(text="The minister said the report would be published next week.", id="good", metadata={}),
    ]
    kept = list(step.run(iter(docs)))
    assert [d.id for d in kept] == ["good"]
    with pytest.raises(ValueError, match="max_perplexity"):
        PerplexityFilter(max_perplexity=-1)
