"""Qt offscreen for every dashboard test, Qt objects collected on the GUI thread, and the main
window on a fresh match log."""

import gc
import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _collect_on_the_gui_thread():
    """Qt objects caught in reference cycles must die on the GUI thread: collect them here,
    after each test, rather than whenever a driver or camera thread happens to trigger it."""
    yield
    gc.collect()


@pytest.fixture
def window(qtbot, tmp_path: Path):
    """The main window on a fresh match log, with a new Shandong match and no hand yet."""
    from scoring.match import MatchStore
    from ui.dashboard import i18n
    from ui.dashboard.main_window import MainWindow

    i18n.set_language("en")
    store = MatchStore.open(tmp_path / "log.sqlite3")
    w = MainWindow(operator="referee", store=store)
    qtbot.addWidget(w)
    w.match_panel.new_match("shandong", {}, ["Ann", "Bo", "Chen", "Dee"], 0)
    w.show()
    yield w
    w.close()
    store.close()
