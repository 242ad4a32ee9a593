"""Dependencies point one way: scoring imports nothing of ours; vision and hardware only scoring;
ui wires everything. Runtime code never imports torch or ultralytics (the train extra)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OURS = {"scoring", "vision", "hardware", "ui", "datasets", "models"}
ALLOWED = {
    "scoring": set(),
    "hardware": {"scoring"},
    "vision": {"scoring"},
    "datasets": {"scoring"},
    "ui": OURS,
}
TRAINING_ONLY = {"torch", "torchvision", "ultralytics"}
# offline tools inside vision (training, making the bundled samples) may use the generator
TOOLS = {("vision", "training"): {"datasets"}, ("vision", "samples"): {"datasets"}}
# one split rule, not two: the generator takes tiles-real's folds from the training code's pure
# helpers, and nothing else of vision
MODULES = {"datasets": {"vision.training.prepare"}}


def modules_of(path: Path) -> set[str]:
    """Full dotted names of the absolute imports of one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_point_one_way(package: str) -> None:
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        used = imports_of(path) & OURS - {package}
        parts = path.relative_to(ROOT).parts
        extra = TOOLS.get(parts[:2], set()) if len(parts) > 2 else set()
        wrong = used - ALLOWED[package] - extra
        allowed = MODULES.get(package, set())
        if allowed:
            beyond = {m.split(".")[0] for m in modules_of(path) - allowed}
            wrong &= beyond
        if wrong:
            bad.append(f"{path.relative_to(ROOT)} imports {sorted(wrong)}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("package", ["scoring", "hardware", "vision", "ui"])
def test_runtime_never_needs_the_training_extra(package: str) -> None:
    bad = []
    for path in sorted((ROOT / package).rglob("*.py")):
        if "training" in path.relative_to(ROOT).parts:
            continue  # vision/training is the train extra's own code, imported lazily
        if package == "ui" and path.name in ("train.py", "export.py"):
            continue  # the train/export subcommands import it when run
        used = imports_of(path) & TRAINING_ONLY
        if used:
            bad.append(f"{path.relative_to(ROOT)} imports {sorted(used)}")
    assert not bad, "\n".join(bad)


# the dashboard's Qt-free cores: the views receive them and call their methods
DASHBOARD_CORES = ("camera_reading", "core", "i18n", "match_session", "showdowns", "signals")


@pytest.mark.parametrize("name", DASHBOARD_CORES)
def test_importing_a_dashboard_core_never_loads_qt(name: str) -> None:
    """What a module imports at its top (i18n's Qt-only helpers import Qt when called)."""
    path = ROOT / "ui" / "dashboard" / f"{name}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    used = {a.name for node in tree.body if isinstance(node, ast.Import) for a in node.names}
    used |= {node.module for node in tree.body
             if isinstance(node, ast.ImportFrom) and node.module and node.level == 0}
    assert not {m for m in used if m.split(".")[0] == "PySide6"}, f"{name} imports Qt"
    views = {m for m in used if m.startswith("ui.dashboard.")
             and m.removeprefix("ui.dashboard.") not in DASHBOARD_CORES}
    assert not views, f"{name} imports {sorted(views)}, which may import Qt"
