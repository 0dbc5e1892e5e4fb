from ._ncleaner import (
    Cleaner as Cleaner,
    CleanResult as CleanResult,
    DocumentError as DocumentError,
    Metadata as Metadata,
    NCleanerError as NCleanerError,
    PageQuality as PageQuality,
    PageType as PageType,
    Segment as Segment,
    WordModel as WordModel,
    perplexity as perplexity,
    __version__ as __version__,
    embedded_models as embedded_models,
    extract as extract,
)

Result = CleanResult
