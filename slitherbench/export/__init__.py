"""``python -m slitherbench.export``: the export command (:mod:`slitherbench.run.export_cli`).
The writers themselves are :mod:`slitherbench.models.export`.

Imports: the run."""
