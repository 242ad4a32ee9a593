"""The PySide6 dashboard: live view, seats, scoring, corrections, match and table control.

The cores are Qt-free: `core` (the hand being scored, corrections), `match_session` (the open
match) and `showdowns` (the camera's hands on their way to the match log), with typed callbacks
(`signals`); the widgets receive them, subscribe to them and write back only through their
methods.
"""
