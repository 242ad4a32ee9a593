"""The PySide6 dashboard: live view, seats, scoring, corrections, match and table control.

`core` is Qt-free (typed callbacks, the hand being scored, corrections); the widgets receive the
core, subscribe to it and write back only through its methods.
"""
