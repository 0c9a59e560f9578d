"""The analysis: a store turned into tables, statistics, figures and published pages.

Holds the tables (:mod:`.tables`), the statistics (:mod:`.stats`: intervals, paired tests,
time to solution), comparisons of two cells (:mod:`.compare`), the report
(:mod:`.report`, ``python -m slitherbench.report``), published pages (:mod:`.publish`,
:mod:`.benchmark_page`, :mod:`.render`) and the report's items (:mod:`.plots`).

Imports: the store and the layers below it; never the run.
"""
