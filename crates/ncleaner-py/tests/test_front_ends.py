"""The four front ends -- `ncleaner clean`, the web API, Python's Cleaner and the
datatrove step -- build the same options (the library's CleanOptions) and give the
same record for the same page: a German page with model="en" (routed to en-nonlex
by all four) at every operating point, and an English one. And all four refuse
threshold=NaN with a message naming the option."""

import json
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

import ncleaner
from conftest import cli_binary

from datatrove.data import Document  # noqa: E402
from ncleaner.datatrove import NCleanerExtractor  # noqa: E402

GERMAN = (
    "<html><head><title>Die Mühle am Bach</title></head><body>"
    "<nav><a href=/>Startseite</a> | <a href=/k>Kontakt</a> | <a href=/i>Impressum</a></nav>"
    "<h1>Die Mühle am Bach</h1>"
    "<p>Die alte Mühle am Bach wurde im Jahr 1650 gebaut und mahlte bis 1960 das Korn der "
    "umliegenden Dörfer. Im Sommer, wenn der Bach wenig Wasser führte, stand das Rad oft "
    "still, und die Bauern mussten warten, bis der Regen kam.</p>"
    "<p>Heute ist die Mühle ein kleines Museum. Besucher sehen das große Rad, die "
    "Mahlsteine und die Kammer des Müllers, in der noch sein Tisch und sein Bett stehen; "
    "im Herbst wird an einem Sonntag wieder Mehl gemahlen.</p>"
    "<div class=footer>Impressum | Datenschutz | © 2024 Heimatverein</div></body></html>"
)
ENGLISH = (
    "<html><body><ul><li><a href=/>Home</a></li><li><a href=/c>Contact</a></li></ul>"
    "<h1>Tomatoes</h1><p>Tomatoes are among the easiest vegetables to grow in a garden, and "
    "they need at least six hours of sun a day. Water them deeply twice a week, and stake the "
    "plants before the fruit sets so the stems do not break under the weight.</p>"
    "<p>Copyright 2024. All rights reserved.</p></body></html>"
)

# Every operating point: the page's own cut, the stored points, a threshold set
# either way.
OPTIONS = [
    {"model": "en"},
    {"model": "en", "prefer": "precision"},
    {"model": "en", "prefer": "recall"},
    {"model": "en", "threshold": 1.5},
    {"model": "en", "min_probability": 0.8},
    {"model": "en", "route": False},
    {"model": "en", "comments": "drop", "keep_repeats": True},
]
POINTS = ["page-f", "precision", "recall", "threshold", "threshold", "page-f", "page-f"]


def cli_flags(options):
    flags = []
    for k, v in options.items():
        if k == "route":
            flags += [] if v else ["--no-route"]
        elif v is True:
            flags.append("--" + k.replace("_", "-"))
        else:
            flags += ["--" + k.replace("_", "-"), str(v)]
    return flags


@pytest.fixture(scope="module")
def server():
    """`ncleaner serve` on a free loopback port, stopped after the tests."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [str(cli_binary()), "serve", "--quiet", "--addr", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(url + "/healthz", timeout=1).read()
            break
        except OSError:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "ncleaner serve did not start"
            time.sleep(0.1)
    yield url
    proc.terminate()
    proc.wait(timeout=30)


def post(url, body, query=""):
    req = urllib.request.Request(
        url + "/api/clean" + query,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def cli_record(tmp_path, page, options):
    path = tmp_path / "page.html"
    path.write_text(page, encoding="utf-8")
    out = subprocess.run(
        [str(cli_binary()), "clean", "-q", "--format", "jsonl", "--segments", "--markdown",
         *cli_flags(options), str(path)],
        check=True,
        capture_output=True,
    )
    lines = out.stdout.decode().splitlines()
    assert len(lines) == 1, lines
    return json.loads(lines[0])


@pytest.mark.parametrize("page", [GERMAN, ENGLISH], ids=["german", "english"])
@pytest.mark.parametrize("i", range(len(OPTIONS)), ids=[json.dumps(o) for o in OPTIONS])
def test_one_record_from_four_front_ends(tmp_path, server, page, i):
    options = OPTIONS[i]
    cli = cli_record(tmp_path, page, options)
    status, api = post(server, {"html": page, **options})
    assert status == 200, api
    py = ncleaner.Cleaner(**options).clean(page.encode()).to_dict()
    # Every field the CLI writes, the API and Python give alike.
    for key, value in cli.items():
        if key != "id":
            assert api[key] == value, key
            assert py[key] == value, key
    # And what JSON Lines leaves out: the cut that decided, and where it came from.
    for key in ["threshold", "operating_point", "input", "language", "model", "markdown", "method"]:
        assert api[key] == py[key], key
    # One record: the API's fields are Python's.
    assert sorted(api) == sorted(py)
    assert api["operating_point"] == POINTS[i]
    if page is GERMAN and options.get("route", True):
        assert (cli["language"], cli["model"]) == ("de", "en-nonlex")
    if not options.get("route", True):
        assert "model" not in cli and api["model"] is None and api["language"] is None
    # The cut decided every segment its score decided.
    for s in api["segments"]:
        if s["evidence"] is not None:
            assert s["keep"] == (s["evidence"] >= api["threshold"]), s
    # datatrove: the same text, word counts and model.
    step = NCleanerExtractor(**options, threads=1, drop_empty=False, page_metadata=False)
    (doc,) = list(step.run([Document(text=page, id="page")]))
    assert doc.text == cli["text"]
    assert (doc.metadata["words_in"], doc.metadata["words_out"]) == (cli["words_in"], cli["words_out"])
    assert doc.metadata["ncleaner_model"] == api["model"]
    # The one-line call too.
    assert ncleaner.extract(page, **options) == cli["text"]


def test_nan_is_refused_by_all_four(tmp_path, server):
    path = tmp_path / "page.html"
    path.write_text(ENGLISH, encoding="utf-8")
    out = subprocess.run(
        [str(cli_binary()), "clean", "--threshold", "NaN", str(path)], capture_output=True
    )
    assert out.returncode != 0 and out.stdout == b""
    assert "--threshold: NaN is not a finite number" in out.stderr.decode()

    # JSON has no NaN; a query string does.
    req = urllib.request.Request(
        server + "/api/clean?threshold=NaN", data=ENGLISH.encode(), headers={"Content-Type": "text/html"}
    )
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=60)
    assert e.value.code == 400
    assert json.loads(e.value.read())["error"] == "threshold: NaN is not a finite number"

    with pytest.raises(ValueError, match="threshold: NaN is not a finite number"):
        ncleaner.Cleaner(threshold=float("nan"))
    with pytest.raises(ValueError, match="threshold: NaN is not a finite number"):
        ncleaner.extract(ENGLISH, threshold=float("nan"))
    with pytest.raises(ValueError, match="threshold: NaN is not a finite number"):
        NCleanerExtractor(threshold=float("nan"))
