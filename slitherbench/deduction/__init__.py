"""Deduction: forced moves and look-ahead on a puzzle, with no solver inside.

Imports: :mod:`slitherbench.puzzles` only.
"""
