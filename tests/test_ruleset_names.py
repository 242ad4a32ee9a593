"""Ruleset knowledge stays in ``scoring/rulesets/``: the engine, vision, the hardware, the UI and
the datasets ask the ruleset (``scoring/rulesets/base.py``) and never name one.

Outside ``scoring/rulesets/`` no string in code (docstrings aside) names a built-in ruleset (a
``"shandong"`` literal, a table keyed by ruleset names, a help text listing them) and no module
imports a ruleset's package directly; the registry is the way in.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from scoring.rulesets.registry import known_rulesets

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("scoring", "vision", "hardware", "ui", "datasets")
RULESETS = ROOT / "scoring" / "rulesets"
BUILT_IN = tuple(n for n in known_rulesets() if (RULESETS / n).is_dir())
NAMED = re.compile(rf"\b({'|'.join(BUILT_IN)})\b", re.IGNORECASE)


def sources() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")
                  if RULESETS not in p.parents)


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string nodes that are docstrings (a module's, a class's, a function's)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                out.add(id(body[0].value))
    return out


def ruleset_mentions(source: str, filename: str = "<text>") -> list[str]:
    """Where code names a built-in ruleset: ``line: what`` for each string and import."""
    tree = ast.parse(source, filename=filename)
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docs and NAMED.search(node.value)):
            found.append(f"{node.lineno}: string {node.value[:60]!r}")
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for m in modules:
                parts = m.split(".")
                if parts[:2] == ["scoring", "rulesets"] and len(parts) > 2 and \
                        parts[2] in BUILT_IN:
                    found.append(f"{node.lineno}: imports {m}")
                    break
        elif isinstance(node, ast.Import):
            found += [f"{node.lineno}: imports {a.name}" for a in node.names
                      if a.name.split(".")[:2] == ["scoring", "rulesets"]
                      and a.name.split(".")[2:3] and a.name.split(".")[2] in BUILT_IN]
    return found


def test_the_built_in_rulesets_are_found() -> None:
    assert len(BUILT_IN) == 3
    assert len(sources()) > 50


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_ruleset_is_named_outside_the_rulesets(path: Path) -> None:
    found = ruleset_mentions(path.read_text(encoding="utf-8"), str(path))
    assert not found, (f"{path.relative_to(ROOT)} names a ruleset; ask the Ruleset interface "
                       f"instead: {found}")


def test_the_check_finds_names_tables_and_imports() -> None:
    """The check itself: each way of naming a ruleset is caught, a docstring is not."""
    source = '''"""Shandong is mentioned in a docstring, which is fine."""
import scoring.rulesets.liaoyang.dice
from scoring.rulesets.shanghai.louhu import may_win_on_discard
from scoring.rulesets import shandong
from scoring.rulesets.registry import get_ruleset
WALL = {"shandong": 144, "liaoyang": 136}
HELP = "shandong, liaoyang or Shanghai"
def f(ruleset):
    """Ask liaoyang here: a docstring again."""
    return ruleset == "liaoyang" or f"{ruleset} is not shanghai"
'''
    found = ruleset_mentions(source)
    lines = sorted(int(f.split(":")[0]) for f in found)
    assert lines == [2, 3, 4, 6, 6, 7, 10, 10], found
