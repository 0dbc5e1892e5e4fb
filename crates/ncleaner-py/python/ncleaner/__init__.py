"""ncleaner: boilerplate removal for web pages at corpus scale.

The cleaning runs in Rust (the ``ncleaner`` crate): character n-gram
clean/dirty models after Evert's NCleaner, with a segment classifier.

>>> import ncleaner
>>> cleaner = ncleaner.Cleaner()            # as `ncleaner clean`: English pages to "en", zh/ru/pl/el to "multi", others to "en-nonlex"
>>> result = cleaner.clean("<p>Some page</p>", url="https://example.com/")
>>> isinstance(result.text, str)
True
>>> isinstance(ncleaner.extract("<p>Some page</p>"), str)   # the one-line case
True

The keywords of ``Cleaner`` and ``extract`` are the options of ``ncleaner clean``
(``model="en"``, ``threshold=1.5``, ``route=False``, ...), with its defaults and its
routing; the web API takes the same names.

``Cleaner`` is immutable and safe to share between threads; ``clean`` and
``clean_many`` release the GIL while they work, and ``clean_many`` cleans a
batch in parallel on Rust threads.

Perplexity filtering (PyPlexity's method): ``ncleaner.perplexity(sentence)``,
``ncleaner.WordModel("en-ppl").filter(text, max_perplexity=8000)``, or
``Cleaner(method="perplexity")``.

``ncleaner.datatrove`` holds a datatrove extractor step and a perplexity filter (``pip install
ncleaner[datatrove]``).
"""

from ._ncleaner import (
    Cleaner,
    CleanResult,
    DocumentError,
    Metadata,
    NCleanerError,
    PageQuality,
    PageType,
    Segment,
    WordModel,
    __version__,
    embedded_models,
    extract,
    perplexity,
)

#: The result of :meth:`Cleaner.clean` (the issue's name for ``CleanResult``).
Result = CleanResult

__all__ = [
    "Cleaner",
    "CleanResult",
    "DocumentError",
    "Metadata",
    "NCleanerError",
    "PageQuality",
    "PageType",
    "Result",
    "Segment",
    "WordModel",
    "__version__",
    "embedded_models",
    "extract",
    "perplexity",
]
