"""The Python module against the CLI, and its API contract."""

import gzip
import json
import math
import os
import subprocess
import threading

import pytest

import ncleaner
from conftest import cli_binary, dev_pages, shared_data

PAGE = (
    b"<html><body><ul><li><a href=/>Home</a></li><li><a href=/c>Contact</a></li></ul>"
    b"<h1>Portrait photography</h1><p>The basics of portrait photography could fill many "
    b"large books, but a few rules of thumb will take a beginner a long way: keep the light "
    b"soft, focus on the eyes, and let the background fall away.</p><p>Window light on an "
    b"overcast day is the cheapest softbox there is, and it flatters almost every face.</p>"
    b"<p>Copyright 2008. All rights reserved.</p></body></html>"
)


@pytest.fixture(scope="module")
def cleaner():
    return ncleaner.Cleaner()


def test_clean_keeps_content_drops_navigation(cleaner):
    r = cleaner.clean(PAGE, url="https://example.com/p")
    assert isinstance(r, ncleaner.Result)
    assert "The basics of portrait photography" in r.text
    assert "Contact" not in r.text
    assert r.url == "https://example.com/p"
    assert r.words_in > r.words_out > 0
    kinds = {s.kind for s in r.segments}
    assert kinds <= {"p", "h", "l"} and "l" in kinds
    kept = [s.text for s in r.segments if s.keep]
    assert r.text == "\n".join(kept)
    assert r.words_out == sum(len(t.split()) for t in kept)
    assert all(s.score is not None for s in r.segments if s.reason == "score")
    # What was compared with the threshold: the classifier's log2-odds where the score decided.
    for s in r.segments:
        if s.reason == "score" and 0 < s.probability < 1:
            assert s.evidence == pytest.approx(math.log2(s.probability / (1 - s.probability)))
        elif s.reason != "score":
            assert s.evidence is None
        assert s.output is None


def test_language_is_identified(cleaner):
    assert cleaner.clean(PAGE).language == "en"
    de = (
        "<p>Es war einmal ein König, der hatte drei Söhne, von denen war der jüngste so "
        "schön, dass die Sonne selber sich wunderte, sooft sie ihm ins Gesicht schien.</p>"
    )
    assert cleaner.clean(de).language == "de"
    assert cleaner.clean("<p>Home</p>").language is None


def test_metadata_and_page_quality(cleaner):
    page = (
        b"<html lang=en><head><title>Portraits | Photo Notes</title>"
        b"<meta property=og:site_name content='Photo Notes'>"
        b"<meta property=article:published_time content='2025-03-04T10:00:00+01:00'>"
        b"<script type=application/ld+json>{\"@type\":\"Article\",\"author\":[{\"name\":\"Jane Doe\"}]}</script>"
        b"</head>" + PAGE[6:]
    )
    m = cleaner.clean(page).metadata
    assert isinstance(m, ncleaner.Metadata)
    # The page's one h1 is its title.
    assert m.title == "Portrait photography"
    assert m.authors == ["Jane Doe"]
    assert m.date_published == "2025-03-04T10:00:00+01:00"
    assert m.site_name == "Photo Notes"
    assert m.language == "en"
    assert m.date_modified is None and m.canonical_url is None and m.tags == []
    assert m.to_dict()["authors"] == ["Jane Doe"]
    # No metadata on the page: nulls, never invented.
    bare = cleaner.clean(PAGE).metadata
    assert bare.authors == [] and bare.date_published is None and bare.site_name is None
    # Text input has no metadata.
    assert cleaner.clean("Just text.", input="text").metadata is None
    # The embedded model predicts page quality.
    q = cleaner.clean(PAGE).page_quality
    assert q is None or 0.0 <= q.precision <= 1.0


def test_page_type_and_roles(cleaner):
    r = cleaner.clean(PAGE)
    t = r.page_type
    assert isinstance(t, ncleaner.PageType)
    assert t.name in ("article", "forum", "product", "collection", "listing", "documentation", "service")
    assert 0.0 < t.confidence <= 1.0
    assert r.to_dict()["page_type"] == {"type": t.name, "confidence": round(t.confidence, 3)}
    roles = {s.text: s.role for s in r.segments}
    assert roles["Portrait photography"] == "title"
    assert all(s.role is not None for s in r.segments if s.keep)
    # A dropped menu item is not the page's body: it has no role.
    assert not any(s.keep for s in r.segments if s.text == "Home")
    assert roles["Home"] is None and roles["Contact"] is None
    assert all(s.role != "body" for s in r.segments if not s.keep)
    # The body alone: no title.
    body = ncleaner.Cleaner(roles="body").clean(PAGE)
    assert "Portrait photography" not in body.text.splitlines()
    assert "The basics of portrait photography" in body.text
    assert any(s.reason == "role" for s in body.segments)
    with pytest.raises(ValueError, match="roles"):
        ncleaner.Cleaner(roles="most")
    # Text input has no page type and no roles.
    plain = cleaner.clean("Just text.", input="text")
    assert plain.page_type is None and all(s.role is None for s in plain.segments)


def test_str_and_bytes_agree(cleaner):
    a = cleaner.clean(PAGE)
    b = cleaner.clean(PAGE.decode())
    assert a.text == b.text and a.words_in == b.words_in


def test_str_is_not_redecoded(cleaner):
    # A str is already text: a <meta charset> naming a single-byte encoding must not mangle it.
    page = '<meta charset="iso-8859-1"><p>Caf\u00e9 cr\u00e8me, na\u00efve r\u00e9sum\u00e9 of the week.</p>'
    r = ncleaner.Cleaner(method="keep-all").clean(page)
    assert "Caf\u00e9 cr\u00e8me" in r.text
    assert r.encoding == "UTF-8"


def test_methods_and_thresholds(cleaner):
    keep_all = ncleaner.Cleaner(method="keep-all").clean(PAGE)
    assert keep_all.words_out == keep_all.words_in
    assert all(s.reason == "keep-all" for s in keep_all.segments)
    strict = ncleaner.Cleaner(threshold=50.0).clean(PAGE)
    lax = ncleaner.Cleaner(threshold=-50.0).clean(PAGE)
    assert strict.words_out <= cleaner.clean(PAGE).words_out <= lax.words_out
    assert ncleaner.Cleaner(min_probability=0.5).threshold() == pytest.approx(0.0, abs=1e-9)
    assert ncleaner.Cleaner(model="en-nonlex").model == "en-nonlex"
    assert set(ncleaner.embedded_models()) >= {"en", "en-nonlex", "multi"}
    precise = ncleaner.Cleaner(prefer="precision").clean(PAGE)
    recall = ncleaner.Cleaner(prefer="recall").clean(PAGE)
    assert precise.words_out <= recall.words_out
    assert ncleaner.Cleaner(prefer="f").clean(PAGE).text == cleaner.clean(PAGE).text
    assert ncleaner.Cleaner(comments="drop").clean(PAGE).words_out <= cleaner.clean(PAGE).words_out


def test_markdown_of_the_kept_text(cleaner):
    r = ncleaner.Cleaner(method="keep-all").clean(
        "<h1>Title</h1><ul><li>One</li><li>Two</li></ul><table><tr><th>a</th><th>b</th></tr>"
        "<tr><td>1</td><td>2</td></tr></table>"
    )
    assert r.markdown == "# Title\n\n- One\n- Two\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n"
    assert cleaner.clean(PAGE).markdown.strip()


def test_text_input(cleaner):
    dump = "Home | About | Contact\n\nThe committee met on Tuesday and agreed to publish the report in full next month.\n"
    r = ncleaner.Cleaner(method="heuristics").clean(dump, input="text")
    assert r.input == "text"
    assert [s.reason for s in r.segments] == ["pipe-nav-bar", "no-heuristic"]
    assert r.text.startswith("The committee met")
    assert cleaner.clean(dump, input="auto").input == "text"


def test_errors_name_the_problem(tmp_path):
    with pytest.raises(ncleaner.NCleanerError, match="no-such-model"):
        ncleaner.Cleaner(model="no-such-model")
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"not a model at all")
    with pytest.raises(ncleaner.NCleanerError, match="bad.model"):
        ncleaner.Cleaner(model=str(bad))
    with pytest.raises(ValueError, match='method: unknown method "fast"'):
        ncleaner.Cleaner(method="fast")
    with pytest.raises(ValueError, match="min_probability"):
        ncleaner.Cleaner(min_probability=1.5)
    # Options are named as Python names them (the command line names its flags).
    with pytest.raises(ValueError, match="^threshold: give threshold or min_probability, not both$"):
        ncleaner.Cleaner(threshold=1.0, min_probability=0.5)
    with pytest.raises(ValueError, match="^threshold: method keep-all has no scores"):
        ncleaner.Cleaner(threshold=1.0, method="keep-all")
    with pytest.raises(ValueError, match="comments"):
        ncleaner.Cleaner(comments="hide")
    with pytest.raises(ValueError, match="prefer"):
        ncleaner.Cleaner(prefer="most")
    c = ncleaner.Cleaner()
    with pytest.raises(ValueError, match="input"):
        c.clean(PAGE, input="pdf")
    with pytest.raises(TypeError, match="int"):
        c.clean(42)
    with pytest.raises(TypeError, match="item 1"):
        c.clean_many([PAGE, 3.5])
    with pytest.raises(ValueError, match="threads"):
        c.clean_many([PAGE], threads=0)


def test_threads_are_lowered_as_jobs_are(cleaner):
    # Issue 52, item 11: threads=2000 started 2,000 threads for three
    # documents, and 10**9 ran the process out of threads.
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    one = cleaner.clean(PAGE).text
    for n in (2000, 10**9):
        if n <= 4 * cores:
            continue
        with pytest.warns(RuntimeWarning, match=f"threads={n} is more than 4 threads per core"):
            results = cleaner.clean_many([PAGE] * 3, threads=n)
        assert [r.text for r in results] == [one] * 3


def test_corrupt_input_never_raises(cleaner):
    for doc in [b"", b"\xff\xfe\x00<p>", b"<" * 10000, "<p>\ud7ff</p>"]:
        r = cleaner.clean(doc)
        assert r.words_out <= r.words_in
    # Random bytes are no document: a DocumentError, or cleaned when forced through.
    with pytest.raises(ncleaner.DocumentError, match="not a document: binary data"):
        cleaner.clean(bytes(range(256)) * 50)
    r = cleaner.clean(bytes(range(256)) * 50, input="html")
    assert r.words_out <= r.words_in


# The first bytes of an ELF executable, then 20 KB of its code.
ELF = b"\x7fELF\x02\x01\x01\x00" + bytes(8) + bytes((i * 7) % 256 for i in range(20000))


def test_bytes_are_identified_as_the_cli_identifies_them(cleaner, tmp_path):
    plain = cleaner.clean(PAGE)
    # Gzipped bytes (a page saved as crawled) are decompressed, as the CLI and the server do.
    gz = gzip.compress(PAGE)
    r = cleaner.clean(gz)
    assert (r.text, r.words_in, r.language) == (plain.text, plain.words_in, "en")
    assert r.truncated is None
    assert ncleaner.extract(gz) == plain.text
    # The CLI on the same bytes in a file: the same text.
    path = tmp_path / "page.html"
    path.write_bytes(gz)
    out = subprocess.run([str(cli_binary()), "clean", "-q", str(path)], capture_output=True, check=True)
    assert out.stdout.decode().rstrip("\n") == r.text
    # A str holding the gzip bytes one character per byte, as a JSON line may.
    assert cleaner.clean(gz.decode("latin-1")).text == plain.text
    # A stream cut short: what decodes is cleaned, and the result says so.
    long = PAGE.replace(b"<p>Copyright", b"<p>" + b"More text of the page here. " * 400 + b"</p><p>Copyright")
    cut = gzip.compress(long)[:-200]
    t = cleaner.clean(cut)
    assert t.words_in > 0 and "cut short" in t.truncated
    assert "cut short" in t.to_dict()["truncated"]
    # Binary bytes are refused, naming what they are; the CLI skips them.
    with pytest.raises(ncleaner.DocumentError, match="not a document: ELF executable"):
        cleaner.clean(ELF)
    with pytest.raises(ncleaner.NCleanerError, match="ELF executable"):
        ncleaner.extract(ELF)
    path.write_bytes(ELF)
    out = subprocess.run([str(cli_binary()), "clean", str(path)], capture_output=True)
    assert out.stdout == b"" and "ELF executable" in out.stderr.decode()
    # clean_many: the document gets its error, the others are cleaned.
    many = cleaner.clean_many([PAGE, (ELF, "https://example.com/a.out"), gz])
    assert [m.error is None for m in many] == [True, False, True]
    bad = many[1]
    assert bad.error.startswith("not a document: ELF executable")
    assert (bad.text, bad.words_in, bad.segments, bad.metadata, bad.input) == ("", 0, [], None, None)
    assert bad.to_dict() == {"url": "https://example.com/a.out", "error": bad.error}
    assert "error=" in repr(bad)
    assert many[2].text == many[0].text == plain.text
    # Forced through when the input kind is given, as `clean --input html` forces files.
    assert ncleaner.Cleaner(input="html").clean(ELF).error is None


def test_the_record_has_the_api_fields(cleaner):
    r = cleaner.clean(PAGE, url="https://example.com/p")
    d = r.to_dict()
    assert d["method"] == r.method == "ncleaner"
    assert isinstance(d["elapsed_ms"], float) and d["elapsed_ms"] == r.elapsed_ms >= 0
    assert ncleaner.Cleaner(method="keep-all").clean(PAGE).to_dict()["method"] == "keep-all"
    # The URL given wins; without one, the page's own canonical URL.
    canonical = b"<link rel=canonical href='https://example.com/canonical'>" + PAGE
    assert cleaner.clean(canonical, url="https://mirror.test/p").url == "https://mirror.test/p"
    assert cleaner.clean(canonical).url == "https://example.com/canonical"
    assert cleaner.clean(canonical).to_dict()["url"] == "https://example.com/canonical"
    assert cleaner.clean(PAGE).url is None


def test_clean_many_matches_clean_in_order(cleaner):
    pages = dev_pages(20)
    many = cleaner.clean_many(((b, p.name) for p, b in pages), threads=2)
    assert [r.url for r in many] == [p.name for p, _ in pages]
    for (p, b), r in zip(pages, many):
        one = cleaner.clean(b, url=p.name)
        assert one.text == r.text, p
        assert [s.score for s in one.segments] == [s.score for s in r.segments]


def test_shared_between_threads(cleaner):
    pages = dev_pages(12)
    expected = [cleaner.clean(b).text for _, b in pages]
    got = [None] * len(pages)

    def work(i):
        got[i] = cleaner.clean(pages[i][1]).text

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(pages))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == expected


def test_same_as_cli_on_cleaneval_dev(cleaner):
    """Every dev page: the module's text, word counts, segment scores, language
    and model equal `ncleaner clean --format jsonl` (both route each page by
    its language the same way)."""
    folder = shared_data() / "cleaneval" / "dev"

    def cli(*extra):
        out = subprocess.run(
            [str(cli_binary()), "clean", "--input", "html", "--format", "jsonl", "--segments", *extra, str(folder)],
            check=True,
            capture_output=True,
        )
        return {json.loads(line)["id"]: json.loads(line) for line in out.stdout.splitlines()}

    records = cli()
    pages = dev_pages()
    assert len(records) == len(pages) > 50
    by_name = {k.rsplit("/", 1)[-1]: v for k, v in records.items()}
    for path, body in pages:
        want = by_name[path.name]
        got = cleaner.clean(body, input="html")
        assert got.text == want["text"], path
        assert (got.words_in, got.words_out) == (want["words_in"], want["words_out"]), path
        assert [s.text for s in got.segments] == [s["text"] for s in want["segments"]], path
        assert [s.keep for s in got.segments] == [s["keep"] for s in want["segments"]], path
        assert [s.score for s in got.segments] == [s["score"] for s in want["segments"]], path
        assert (got.language, got.model) == (want["language"], want["model"]), path
        assert got.metadata.to_dict() == want["metadata"], path
        q = want.get("page_quality")
        assert (got.page_quality is None) == (q is None), path
        if q is not None:
            assert (got.page_quality.precision, got.page_quality.recall) == (q["precision"], q["recall"]), path
        # One record: every field the CLI wrote, `to_dict()` holds alike
        # (it adds what JSON Lines leaves out: input, markdown, ...).
        record = got.to_dict()
        for key, value in want.items():
            if key != "id":
                assert record[key] == value, (path, key)
        assert record["input"] == "html" and record["markdown"] == got.markdown, path
        assert json.loads(got.to_json()) == record, path


def test_pickles_as_its_arguments():
    import pickle

    c = ncleaner.Cleaner(model="en-nonlex", route=False, threshold=1.5)
    d = pickle.loads(pickle.dumps(c))
    assert (d.model, d.method, d.threshold()) == ("en-nonlex", "ncleaner", 1.5)
    assert d.options == c.options and d.options["route"] is False
    h = pickle.loads(pickle.dumps(ncleaner.Cleaner(method="heuristics", input="text")))
    assert (h.method, h.options["input"]) == ("heuristics", "text")
    assert d.clean(PAGE).text == c.clean(PAGE).text
    c = ncleaner.Cleaner(prefer="recall", comments="drop", keep_repeats=True, roles="body")
    d = pickle.loads(pickle.dumps(c))
    assert d.threshold() == c.threshold()
    assert d.clean(PAGE).text == c.clean(PAGE).text
    assert d.clean(REPEATS).text == c.clean(REPEATS).text


REPEATS = (
    "<html><body><p>The same sentence of this page is shown twice for the layout's sake.</p>"
    "<p>The same sentence of this page is shown twice for the layout's sake.</p></body></html>"
)


LINKED = (
    "<html><body><p>Read <a href='/guide'>the guide to the tool</a> before you start it "
    "on your own pages.</p></body></html>"
)


def test_links_in_markdown_on_request():
    plain = ncleaner.Cleaner(model="en", min_probability=0.01).clean(LINKED, url="https://example.org/a/")
    linked = ncleaner.Cleaner(model="en", min_probability=0.01, links=True)
    r = linked.clean(LINKED, url="https://example.org/a/")
    assert "[the guide to the tool](https://example.org/guide)" in r.markdown
    assert "](" not in plain.markdown
    assert r.text == plain.text
    import pickle

    again = pickle.loads(pickle.dumps(linked)).clean(LINKED, url="https://example.org/a/")
    assert again.markdown == r.markdown


def test_repeats_are_dropped_unless_kept():
    dropped = ncleaner.Cleaner(model="en", min_probability=0.01).clean(REPEATS)
    kept = ncleaner.Cleaner(model="en", min_probability=0.01, keep_repeats=True).clean(REPEATS)
    assert [s.reason for s in dropped.segments] == ["score", "repeat"]
    assert kept.text.count("shown twice") == 2
    assert dropped.text.count("shown twice") == 1


GOOD = "The minister said the report would be published next week."
SALAD = "Qzx vbnm plok wruff jjj kkk zzq."


def test_perplexity_function_and_word_model():
    assert ncleaner.perplexity(GOOD) < 1000 < 8000 < ncleaner.perplexity(SALAD)
    lm = ncleaner.WordModel()
    assert lm.model == "en-ppl"
    assert lm.perplexity(GOOD) == ncleaner.perplexity(GOOD)
    sentences = lm.sentences(f"{GOOD} {SALAD}\nA second line.")
    assert [s[0] for s in sentences] == [GOOD, SALAD, "A second line."]
    assert [s[2] for s in sentences] == [True, False, sentences[2][1] <= 8000]
    text, removed = lm.filter(f"{GOOD} {SALAD}\n{SALAD}")
    assert (text, removed) == (GOOD, 2)
    assert lm.filter(GOOD, max_perplexity=1.0) == ("", 1)
    with pytest.raises(ValueError, match="max_perplexity"):
        lm.filter(GOOD, max_perplexity=0)
    with pytest.raises(ncleaner.NCleanerError, match="no such file"):
        ncleaner.WordModel("/no/such/model.ncwl")
    import pickle

    assert pickle.loads(pickle.dumps(lm)).perplexity(GOOD) == lm.perplexity(GOOD)


def test_cleaner_with_the_perplexity_method(cleaner):
    page = f"<html><body><p>{GOOD} {SALAD}</p><p>{SALAD}</p></body></html>"
    r = ncleaner.Cleaner(method="perplexity").clean(page)
    assert r.text == GOOD
    assert [s.reason for s in r.segments] == ["perplexity", "perplexity"]
    # The kept sentences of the first paragraph, not its whole text.
    assert r.segments[0].output == GOOD
    assert [s.keep for s in r.segments] == [True, False]


def test_perplexity_same_as_cli():
    sentences = [GOOD, SALAD, "Click here to subscribe to our newsletter"]
    out = subprocess.run(
        [cli_binary(), "perplexity", "-"], input="\n".join(sentences) + "\n",
        capture_output=True, text=True, check=True,
    ).stdout.split()
    for s, cli in zip(sentences, out):
        assert abs(ncleaner.perplexity(s) - float(cli)) <= 0.01 * float(cli) / 100 + 0.005, s


GERMAN = (
    "<html><body><ul><li><a href=/>Startseite</a></li><li><a href=/k>Kontakt</a></li></ul>"
    "<p>Am Rande des kleinen Dorfes stand eine alte Mühle, deren Rad sich seit vielen Jahren "
    "nicht mehr gedreht hatte. Die Kinder des Ortes erzählten sich, dass in ihren Mauern ein "
    "freundlicher Geist wohne, der nachts die Säcke zähle. Im Frühling kamen die Bauern gern "
    "vorbei und sprachen über das Wetter, die Ernte und die Preise auf dem Markt.</p></body></html>"
)


def test_routes_by_language_as_the_cli():
    """By default a German page goes to en-nonlex, as `ncleaner clean` sends it;
    so it does with model="en" (as `clean --model en`); route=False makes one
    model clean every page (`--no-route`)."""
    routed = ncleaner.Cleaner()
    assert routed.model is None
    r = routed.clean(GERMAN)
    assert (r.language, r.model) == ("de", "en-nonlex")
    assert ncleaner.Cleaner().clean("<p>" + "The quick brown fox jumps over the lazy dog. " * 5 + "</p>").model == "en"
    named = ncleaner.Cleaner(model="en").clean(GERMAN)
    assert (named.language, named.model) == ("de", "en-nonlex")
    assert named.text == r.text
    one = ncleaner.Cleaner(model="en", route=False).clean(GERMAN)
    assert (one.language, one.model) == (None, None)


def test_bytes_are_read_as_they_say_whatever_their_label():
    # Issue 70: UTF-8 under a stale GB2312 label is UTF-8; GBK under a UTF-8
    # label is GBK; GBK under its own label stays GBK; a str stays itself.
    body = "新华社北京十二月十五日电，记者从国家气象局获悉，受强冷空气影响，未来三天我国北方大部分地区将出现大风降温天气。"

    def page(meta):
        declared = f'<meta charset="{meta}">' if meta else ""
        return f"<html><head>{declared}</head><body><p>{body}</p></body></html>"

    keep_all = ncleaner.Cleaner(method="keep-all")
    for what, document, charset, encoding in [
        ("UTF-8 under a GB2312 <meta>", page("gb2312").encode(), None, "UTF-8"),
        ("UTF-8 under a GB2312 charset", page(None).encode(), "gb2312", "UTF-8"),
        ("GBK under a UTF-8 <meta>", page("utf-8").encode("gbk"), None, "GBK"),
        ("GBK under a UTF-8 charset", page(None).encode("gbk"), "utf-8", "GBK"),
        ("GBK under a GBK <meta>", page("gbk").encode("gbk"), None, "GBK"),
        ("a str under a GB2312 <meta>", page("gb2312"), None, "UTF-8"),
    ]:
        r = keep_all.clean(document, charset=charset)
        assert body in r.text, what
        assert r.encoding == encoding, what
