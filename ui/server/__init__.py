"""The tournament server: many tables' match logs in one store, standings and a referee desk.

``store`` (one interface over ``engines``: SQLite or PostgreSQL, one schema in ``migrations``),
``tokens`` (who may write what), ``app`` (the ASGI app ``mjtable serve`` runs on uvicorn) and
``pages`` (the HTML views). The tournament logic itself is :mod:`scoring.tournament`.
"""
