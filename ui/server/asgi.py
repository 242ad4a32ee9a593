"""The app for uvicorn's own process management (``--workers``): the database comes from the
environment (``MJTABLE_SERVER_DB``), since uvicorn imports the app in each worker."""

from __future__ import annotations

import os

from starlette.applications import Starlette

ENV = "MJTABLE_SERVER_DB"


def app() -> Starlette:
    from ui.server.app import create_app

    return create_app(os.environ[ENV])
