from ._ncleaner import (
    Cleaner as Cleaner,
    CleanResult as CleanResult,
    NCleanerError as NCleanerError,
    Segment as Segment,
    WordModel as WordModel,
    perplexity as perplexity,
    __version__ as __version__,
    embedded_models as embedded_models,
    extract as extract,
)

Result = CleanResult
