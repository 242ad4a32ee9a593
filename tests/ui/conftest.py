"""Qt offscreen for every dashboard test, and the vision tests' ONNX model builders on the path
(a detector built from a scene's manifest: the real pipeline, no trained weights)."""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))
