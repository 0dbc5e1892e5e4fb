"""datatrove steps: :class:`NCleanerExtractor`, a ``BaseExtractor`` that cleans HTML with ncleaner,
and :class:`PerplexityFilter`, a ``BaseFilter`` that removes sentences by word-model perplexity.

Needs the ``datatrove`` extra (``pip install "ncleaner[datatrove]"``)::

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from ncleaner.datatrove import NCleanerExtractor, PerplexityFilter

    if __name__ == "__main__":  # datatrove starts its workers by importing this file again
        LocalPipelineExecutor(
            pipeline=[WarcReader("warcs/"), NCleanerExtractor(), PerplexityFilter(), JsonlWriter("out/")],
            tasks=8,
        ).run()

The guard is needed: datatrove starts its workers with ``forkserver``, which
imports the script again in each one; without it every worker fails in its
bootstrapping phase and the pool starts new ones without end.

Unlike datatrove's Python extractors, which run each document in a sandbox
process with a timeout (they may hang), ncleaner neither hangs nor crashes on
corrupt input, so the step cleans in-process, a batch at a time, in parallel
on Rust threads with the GIL released.
"""

from __future__ import annotations

from itertools import islice
from typing import Optional

from datatrove.data import DocumentsPipeline
from datatrove.pipeline.extractors.base import BaseExtractor
from datatrove.pipeline.filters.base_filter import BaseFilter
from datatrove.utils.typeshelper import StatHints

import ncleaner


class NCleanerExtractor(BaseExtractor):
    """Replaces each document's HTML by its cleaned text (ncleaner's character n-gram models).

    Args:
        model: "en", "multi", "en-nonlex" or a model file's path (or a list of them); default
            "en" and "multi". Pages are routed by language as ``ncleaner clean`` routes them:
            by default English pages to "en", Chinese, Russian, Polish and Greek ones to
            "multi", the others to "en-nonlex"; with ``model="en"`` the others go to
            "en-nonlex" (``route=False``: that one model cleans every page).
        **options: every other option of ``ncleaner.Cleaner`` (the options of
            ``ncleaner clean``, with its defaults): ``method``, ``threshold``,
            ``min_probability``, ``prefer``, ``comments``, ``keep_repeats``, ``links``,
            ``images``, ``roles``, ``input`` ("auto" by default), ``route``, ``fallback_model``,
            ``min_page_quality``, and the perplexity ones. A bad option fails here, when the
            pipeline is built, naming the option.
        batch_size: documents cleaned together by one parallel call.
        threads: Rust threads per task (default: all cores; set 1 when a machine runs one task per core).
        drop_empty: drop documents left without text (as datatrove's extractors do).
        timeout: kept for ``BaseExtractor``'s signature; unused (the step does not sandbox).
        page_metadata: add the page's own metadata (below).
        markdown: the document's text becomes the kept text as Markdown (headings, lists,
            code blocks, quotes, tables) instead of plain lines.

    A document whose content is no document (binary bytes, which ``ncleaner.Cleaner``
    identifies as the CLI does) is dropped and counted as ``not_a_document``.

    Each document gets metadata ``words_in``, ``words_out`` and ``ncleaner_model``, and
    ``page_type`` and ``page_type_confidence`` when the model predicts the page's type; with
    ``page_metadata`` also those fields of the page's metadata (``ncleaner.Metadata``) that the
    page states: ``title``, ``authors``, ``date_published``, ``date_modified``, ``site_name``,
    ``canonical_url``, ``description``, ``tags``, ``categories`` (fields nobody states are left
    out, and an existing key is never overwritten).
    """

    name = "🧹 NCleaner"
    _requires_dependencies = []

    def __init__(
        self,
        model=None,
        *,
        batch_size: int = 256,
        threads: Optional[int] = None,
        drop_empty: bool = True,
        timeout: float = 1,
        page_metadata: bool = True,
        markdown: bool = False,
        **options,
    ):
        super().__init__(timeout)
        if batch_size < 1:
            raise ValueError(f"batch_size={batch_size}: must be at least 1")
        self.batch_size = batch_size
        self.threads = threads
        self.drop_empty = drop_empty
        self.page_metadata = page_metadata
        self.markdown = markdown
        # Loaded here so that a bad option fails when the pipeline is built, not in a worker.
        self._cleaner: Optional[ncleaner.Cleaner] = ncleaner.Cleaner(model, **options)
        # Every option, defaults included, as the cleaner read them: what a worker rebuilds it from.
        self.options = self._cleaner.options

    def __getstate__(self):
        # Executors pickle their steps; the Rust cleaner is rebuilt in each worker.
        state = self.__dict__.copy()
        state["_cleaner"] = None
        return state

    @property
    def cleaner(self) -> ncleaner.Cleaner:
        """The ncleaner.Cleaner of this step (loaded once per process)."""
        if self._cleaner is None:
            self._cleaner = ncleaner.Cleaner(**self.options)
        return self._cleaner

    def extract(self, text: str) -> str:
        """The cleaned text of one document."""
        result = self.cleaner.clean(text)
        return result.markdown if self.markdown else result.text

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        """Cleans the documents a batch at a time; yields them in order."""
        cleaner = self.cleaner
        it = iter(data)
        while True:
            batch = list(islice(it, self.batch_size))
            if not batch:
                return
            with self.track_time(unit="batch"):
                results = cleaner.clean_many(
                    [(doc.text, doc.metadata.get("url")) for doc in batch],
                    threads=self.threads,
                )
            for doc, result in zip(batch, results):
                self.stat_update(StatHints.total)
                if result.error is not None:
                    # Bytes that are no document (binary) or cannot be read: counted, dropped.
                    self.stat_update("not_a_document")
                    self.stat_update(StatHints.dropped)
                    continue
                self.stat_update("extracted")
                doc.text = result.markdown if self.markdown else result.text
                doc.metadata["words_in"] = result.words_in
                doc.metadata["words_out"] = result.words_out
                doc.metadata["ncleaner_model"] = result.model
                if result.page_type is not None:
                    doc.metadata["page_type"] = result.page_type.name
                    doc.metadata["page_type_confidence"] = result.page_type.confidence
                if self.page_metadata and result.metadata is not None:
                    for key, value in result.metadata.to_dict().items():
                        if key != "language" and value and key not in doc.metadata:
                            doc.metadata[key] = value
                if doc.text or not self.drop_empty:
                    self.stat_update(StatHints.forwarded)
                    self.update_doc_stats(doc)
                    yield doc
                else:
                    self.stat_update(StatHints.dropped)


class PerplexityFilter(BaseFilter):
    """Removes the sentences of each document whose perplexity under a word model is above a cut-off.

    PyPlexity's method as a datatrove step: every line of ``doc.text`` is split
    into sentences, each is scored by the word model (``en-ppl`` by default:
    interpolated modified Kneser-Ney trigrams), and those above
    ``max_perplexity`` are removed from the text. A document left without text
    is dropped (``drop_empty``). Each document gets metadata
    ``ppl_sentences_removed``.

    Args:
        model: "en-ppl" or a word model file (ncleaner's, or ARPA from KenLM's lmplz).
        max_perplexity: the cut-off (PyPlexity's default 8000; its paper tries 1K-14K).
        drop_empty: drop documents left without text.
        exclusion_writer: where dropped documents go (datatrove's ``BaseFilter`` option).
    """

    name = "🧮 Perplexity"
    _requires_dependencies = []

    def __init__(
        self,
        model: str = "en-ppl",
        max_perplexity: float = 8000.0,
        drop_empty: bool = True,
        exclusion_writer=None,
    ):
        super().__init__(exclusion_writer)
        self.model = model
        self.max_perplexity = max_perplexity
        self.drop_empty = drop_empty
        # Loaded (and the cut-off checked) when the pipeline is built, not in a worker.
        self._lm: Optional[ncleaner.WordModel] = ncleaner.WordModel(model)
        self._lm.filter("", max_perplexity)

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_lm"] = None
        return state

    @property
    def word_model(self) -> ncleaner.WordModel:
        """The ncleaner.WordModel of this step (loaded once per process)."""
        if self._lm is None:
            self._lm = ncleaner.WordModel(self.model)
        return self._lm

    def filter(self, doc) -> bool:
        """Removes the document's sentences above the cut-off; False (drop) when nothing is left."""
        text, removed = self.word_model.filter(doc.text, self.max_perplexity)
        doc.text = text
        doc.metadata["ppl_sentences_removed"] = removed
        self.stat_update("sentences_removed", value=removed)
        return bool(text) or not self.drop_empty
