"""Type stubs of the Rust extension module ``ncleaner._ncleaner``."""

from typing import Any, Iterable, Literal, Optional, Tuple, Union

__version__: str

Document = Union[str, bytes]
InputKind = Literal["html", "text", "auto"]

class NCleanerError(Exception):
    """A model that cannot be loaded, or a failed batch; the message names the input."""

class DocumentError(NCleanerError):
    """A document that is not one (binary bytes: an image, an archive, an executable, a PDF,
    random bytes) or cannot be read (a corrupt compressed stream, more than 64 MiB once
    decompressed); the message says which. ``clean_many`` gives such a document a result
    with its ``error`` instead."""

class Segment:
    """One segment of a cleaned document (a paragraph, heading or list item)."""

    @property
    def kind(self) -> Literal["p", "h", "l"]:
        """The CleanEval kind: paragraph, heading or list item."""
    @property
    def text(self) -> str:
        """The segment's text, one line, whitespace collapsed."""
    @property
    def keep(self) -> bool:
        """Whether the segment is kept."""
    @property
    def score(self) -> Optional[float]:
        """The n-gram log-odds log2 P(clean) - log2 P(dirty) in bits; None when no model ran."""
    @property
    def probability(self) -> Optional[float]:
        """The classifier's probability that the segment is clean (models with a classifier)."""
    @property
    def reason(self) -> str:
        """What decided: "score", "keep-all", "no-heuristic", "pipe-nav-bar", "no-alphanumeric",
        "perplexity", "page-quality", "comment", "repeat" (the same text kept earlier on the page),
        "table-row", "code" (a block of code in the page's content, kept though the model dropped it),
        "role" (kept by the model, but of a role the text does not carry), "bare-headings" (kept by
        the model, but the page kept a few words of headings alone: no content), "hidden-text"
        (hidden text the model keeps only at another point than its default) or "product" (a
        product page's price or specification cell, kept though the model dropped it)."""
    @property
    def evidence(self) -> Optional[float]:
        """What was compared with the threshold: log2(p / (1 - p)) with a classifier, else the
        n-gram score; None when a rule or the method decided (JSON Lines' ``evidence``)."""
    @property
    def output(self) -> Optional[str]:
        """The text the output holds when it differs from ``text`` (the sentences the perplexity
        filter kept); None otherwise."""
    @property
    def role(
        self,
    ) -> Optional[
        Literal["title", "byline", "body", "caption", "comment", "post", "table", "code", "furniture"]
    ]:
        """What the segment is on its page (HTML input; None for text); ``roles`` chooses which
        kept roles the text carries. A dropped segment keeps only a role its structure gives
        (a comment, a caption, ...) and has None where it would be "body": the body is the
        running text the page keeps."""

class Metadata:
    """A page's metadata (the ``metadata`` object of the CLI's JSON Lines): each field None, or
    an empty list, when no reliable source on the page gave it (an invented author or date is
    worse than none)."""

    @property
    def title(self) -> Optional[str]:
        """The article's title (og:title, JSON-LD headline, ..., else <title> without the site name)."""
    @property
    def authors(self) -> list[str]:
        """The authors' names (JSON-LD, meta tags, microdata, a byline)."""
    @property
    def date_published(self) -> Optional[str]:
        """Publication date, ISO 8601: "2025-03-04" or "2025-03-04T10:00:00+01:00"."""
    @property
    def date_modified(self) -> Optional[str]:
        """Last modification date, ISO 8601."""
    @property
    def site_name(self) -> Optional[str]:
        """The site or publication's name."""
    @property
    def canonical_url(self) -> Optional[str]:
        """The canonical URL (<link rel=canonical>, og:url)."""
    @property
    def description(self) -> Optional[str]:
        """The page's description of itself."""
    @property
    def language(self) -> Optional[str]:
        """ISO 639-1 tag: the detected language, else the <html lang>."""
    @property
    def tags(self) -> list[str]:
        """Tags or keywords."""
    @property
    def categories(self) -> list[str]:
        """Sections or categories."""
    def to_dict(self) -> dict[str, Union[None, str, list[str]]]:
        """The fields as a dict."""

class PageQuality:
    """A page's predicted cleaning quality."""

    @property
    def precision(self) -> float:
        """Predicted word-level precision of the cleaned text, 0 - 1."""
    @property
    def recall(self) -> float:
        """Predicted word-level recall, 0 - 1."""

class PageType:
    """A page's predicted type."""

    @property
    def name(
        self,
    ) -> Literal["article", "forum", "product", "collection", "listing", "documentation", "service"]:
        """The likeliest type (WCXB's seven)."""
    @property
    def confidence(self) -> float:
        """Its predicted probability, 0 - 1."""

class CleanResult:
    """One cleaned document."""

    @property
    def url(self) -> Optional[str]:
        """The document's URL: the one given (``url=``), else the page's canonical URL
        (``metadata.canonical_url``), else None."""
    @property
    def error(self) -> Optional[str]:
        """Why the document was not cleaned (``clean_many``: bytes that are not a document, or
        cannot be read); None when it was. A result with an error has no text, segments or
        metadata."""
    @property
    def truncated(self) -> Optional[str]:
        """Why the document was not read whole (a compressed stream cut short, a page past the
        limits of one document); None when it was."""
    @property
    def method(self) -> str:
        """The method that decided: "ncleaner", "heuristics", "keep-all" or "perplexity"."""
    @property
    def elapsed_ms(self) -> float:
        """Milliseconds the document took: its identification (decompression) and cleaning."""
    @property
    def text(self) -> str:
        """The cleaned text: the kept segments, one per line, no final newline (as the CLI's JSON Lines)."""
    @property
    def markdown(self) -> str:
        """The kept text as Markdown: headings, nested lists, code blocks, quotes, tables (as ``--format markdown``)."""
    @property
    def words_in(self) -> int:
        """Whitespace-separated words in all segments."""
    @property
    def words_out(self) -> int:
        """Whitespace-separated words in the kept segments."""
    @property
    def input(self) -> Optional[Literal["html", "text"]]:
        """How the document was read; None when it was not (``error``)."""
    @property
    def encoding(self) -> Optional[str]:
        """The encoding the document was decoded with; None when it was not (``error``)."""
    @property
    def had_decode_errors(self) -> bool:
        """Whether undecodable bytes were replaced by U+FFFD."""
    @property
    def language(self) -> Optional[str]:
        """The page's language as an ISO 639-1 tag ("en", "de", ...), identified by whatlang from its longest prose segments; None when there is too little text or the identification is unsure."""
    @property
    def model(self) -> Optional[str]:
        """The model that cleaned the page: the one its language was routed to, or the one asked for."""
    @property
    def threshold(self) -> Optional[float]:
        """The cut the segments' evidence was compared with (bits of log-odds); None when no
        score decided."""
    @property
    def operating_point(self) -> Optional[str]:
        """Where the cut comes from: "page-f", "f", "precision", "recall" or "threshold"."""
    @property
    def segments(self) -> list[Segment]:
        """All segments in page order, kept and dropped."""
    @property
    def metadata(self) -> Optional[Metadata]:
        """The page's metadata (HTML input; None for text input)."""
    @property
    def page_type(self) -> Optional[PageType]:
        """The page's predicted type (HTML input, models with a page-type classifier such as the
        built-in ones; the JSON Lines ``page_type``)."""
    @property
    def page_quality(self) -> Optional[PageQuality]:
        """The predicted quality of the page's cleaning (models with a page-quality model)."""
    def to_dict(self) -> dict[str, Any]:
        """The document as the web API's record: every field (None when unknown), ``method`` and
        ``elapsed_ms``, the Markdown and the segments with their ``reason``, ``evidence`` and
        ``role``; ``ncleaner clean --format jsonl --segments --markdown`` writes the same record
        without the fields it does not know. A result with an ``error`` gives ``{"url", "error"}``,
        as JSON Lines writes a failed document."""
    def to_json(self) -> str:
        """``to_dict()``'s record as a JSON string."""

Result = CleanResult

class Cleaner:
    """A cleaner made of the options of ``ncleaner clean``, its models loaded once; immutable,
    safe to share between threads."""

    def __init__(
        self,
        model: Union[None, str, list[str]] = None,
        *,
        fallback_model: str = "en-nonlex",
        route: bool = True,
        input: InputKind = "auto",
        method: Literal["ncleaner", "heuristics", "keep-all", "perplexity"] = "ncleaner",
        threshold: Optional[float] = None,
        min_probability: Optional[float] = None,
        prefer: Literal["precision", "f", "recall"] = "f",
        comments: Literal["keep", "drop"] = "keep",
        roles: Literal["all", "content", "body"] = "content",
        keep_repeats: bool = False,
        links: bool = False,
        images: bool = False,
        min_page_quality: Optional[float] = None,
        max_perplexity: Optional[float] = None,
        mark: bool = False,
        word_model: str = "en-ppl",
        smoothing: Literal["kneser-ney", "pyplexity"] = "kneser-ney",
    ) -> None:
        """The options are those of ``ncleaner clean`` (the library's ``CleanOptions``), with
        its defaults and its routing: each page goes to the model of its language among
        ``model`` ("en", "multi", "en-nonlex" or model files; default "en" and "multi"), the others to
        ``fallback_model``, so ``Cleaner(model="en")`` sends a German page to "en-nonlex"
        as ``clean --model en`` does; ``route=False`` has one model clean every page
        (``--no-route``). ``input`` ("auto" by default, as the CLI) says how documents are
        read when a call does not.

        ``threshold`` (bits of log-odds, finite) or ``min_probability`` (0-1) override the
        model's own operating point, chosen by ``prefer`` ("f": each page cut at its own
        expected-F point; "precision"; "recall"). ``comments="drop"`` removes user comments
        under an article. A kept segment of 3+ words that repeats one kept earlier on the
        page is dropped unless ``keep_repeats``. ``links`` and ``images`` keep links and
        images in ``Result.markdown``. ``roles`` chooses which kept roles the text carries:
        "content" (the default: no comments, no page furniture), "all" (every kept segment,
        comments included) or "body" (the article's body alone). ``min_page_quality`` drops pages predicted below it.
        ``max_perplexity``, ``mark``, ``word_model``, ``smoothing``: ``method="perplexity"``.
        Raises ValueError for a bad option (naming it), NCleanerError when a model cannot
        be loaded.
        """
    @property
    def model(self) -> Union[None, str, list[str]]:
        """The models as given; None: the default ("en" and "multi", routed by language)."""
    @property
    def method(self) -> str:
        """The method in force."""
    @property
    def options(self) -> dict[str, Any]:
        """Every option, defaults included: ``Cleaner(**c.options)`` makes the same cleaner."""
    def threshold(self, input: InputKind = "html") -> float:
        """The threshold in force for an input kind with the fallback model (a page cut at
        its own point records its cut in ``Result.threshold``)."""
    def clean(
        self,
        document: Document,
        url: Optional[str] = None,
        input: Optional[InputKind] = None,
        charset: Optional[str] = None,
    ) -> CleanResult:
        """Cleans one document, releasing the GIL.

        The document is identified as the CLI identifies a file: compressed bytes (gzip,
        zstd, zlib, brotli; a ``str`` holding them one character per byte too) are
        decompressed, and bytes that are no document (an image, a PDF, an executable,
        random bytes) raise DocumentError naming what they are, unless ``input`` is "html"
        or "text" (which forces them through, as ``clean --input`` does). ``bytes`` are then
        decoded as the CLI does (BOM, then ``charset`` -- the HTTP header's label -- then
        ``<meta>``, then detection); a ``str`` is used as is.
        """
    def clean_many(
        self,
        documents: Iterable[Union[Document, Tuple[Document, Optional[str]]]],
        input: Optional[InputKind] = None,
        threads: Optional[int] = None,
    ) -> list[CleanResult]:
        """Cleans documents (or ``(document, url)`` pairs) in parallel in Rust, results in input order.

        Each is identified as ``clean`` identifies one; one that is no document gets a result
        with its ``error`` (and no text), and the others are cleaned.
        ``threads``: worker threads (default: all cores); more than 4 per core
        are lowered to that, with a ``RuntimeWarning`` (as ``ncleaner clean -j``).
        """

class WordModel:
    """A word n-gram model for perplexity filtering (PyPlexity's method); immutable, shareable."""

    def __init__(self, model: str = "en-ppl") -> None:
        """Loads ``model`` ("en-ppl", embedded, or a model file: ncleaner's or ARPA from KenLM).

        Raises NCleanerError when the model cannot be loaded.
        """
    @property
    def model(self) -> Optional[str]:
        """The model's name or path, as given; None when routed by language."""
    def perplexity(self, sentence: str) -> float:
        """The perplexity of one sentence, 10^(-mean log10 p) over its words and </s>."""
    def sentences(self, text: str, max_perplexity: float = 8000.0) -> list[Tuple[str, float, bool]]:
        """Every sentence of ``text`` (split within lines) as (sentence, perplexity, keep)."""
    def filter(self, text: str, max_perplexity: float = 8000.0) -> Tuple[str, int]:
        """``text`` without its sentences above the cut-off, and how many were removed.

        Each line keeps its kept sentences, joined by spaces; lines left empty go.
        Raises ValueError when ``max_perplexity`` is not positive.
        """

def perplexity(sentence: str, model: str = "en-ppl") -> float:
    """The perplexity of one sentence under a word model (loaded once per process)."""

def extract(document: Document, url: Optional[str] = None, **options: Any) -> str:
    """The cleaned text of one page with the options of ``Cleaner`` (the cleaner of each
    set of options is made once per process): the one-line case. Identifies the document as
    ``Cleaner.clean`` does (DocumentError for bytes that are no document)."""

def embedded_models() -> list[str]:
    """The names of the models built into the module."""
