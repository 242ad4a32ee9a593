"""Qt offscreen for every dashboard test, and the vision tests' ONNX model builders on the path
(a detector built from a scene's manifest: the real pipeline, no trained weights)."""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))


import gc

import pytest


@pytest.fixture(autouse=True)
def _collect_on_the_gui_thread():
    """Qt objects caught in reference cycles must die on the GUI thread: collect them here,
    after each test, rather than whenever a driver or camera thread happens to trigger it."""
    yield
    gc.collect()
