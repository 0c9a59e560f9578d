"""The store: trials and iterations as Parquet, written as a run goes and read by the report.

Holds :mod:`.result_store` (:class:`~.result_store.ResultStore`: append, compact, resume,
repair) and :mod:`.results` (a store read back as tables).

Imports: :mod:`slitherbench.method` and the layers below it. Knows nothing of the sources.
"""

from slitherbench.store.result_store import ResultStore

__all__ = ["ResultStore"]
