"""Start the dashboard: the demo by default (bundled video, shipped models, simulated table, the
match log in the user data folder), or a chosen camera, port and match."""

from __future__ import annotations

import gc
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from scoring.jsonlimits import read_json_file
from scoring.rulesets.registry import default_ruleset
from ui.dashboard import i18n
from vision.stability import STABLE_READINGS, STABLE_S

SAMPLE_HAND = Path(__file__).resolve().parent.parent / "samples" / "hand.json"


@dataclass
class RunOptions:
    camera: str | None = None  # None: the bundled sample video; "none": no camera
    port: str | None = None  # None: the simulated table; "none": no table
    match: int | None = None  # None: the latest match, or a new demo match
    db: Path | None = None  # None: the user data folder
    lang: str = "en"
    operator: str = "operator"
    screenshot: Path | None = None
    exit_after: float | None = None
    hand: Path | None = SAMPLE_HAND  # a hand record to show at start (a recognized win
    #                                   replaces it while it is uncorrected and unconfirmed)
    models: Path | None = None  # None: the shipped models/ (or $MJTABLE_MODELS)
    bottom_seat: int = 0  # the seat at the bottom edge of the camera picture
    realtime: bool = True  # pace a video file at its own frame rate
    loop: bool = True  # play a video file again when it ends (the demo)
    detector: object = None  # a ready vision Detector (tests); overrides ``models``
    save_examples: Path | None = None  # save each confirmed camera showdown here (off: None)
    tabs: tuple[str, ...] = ()  # with screenshot: grab each of these tabs (PATH-TAB.png)
    sync: bool = False  # push the match to the tournament server it is bound to (ui.outbox)
    outbox: Path | None = None  # None: the outbox in the user data folder
    stable_s: float = STABLE_S  # a live reading is reported once it held this long...
    stable_readings: int = STABLE_READINGS  # ...over this many analysed frames


def build_window(opts: RunOptions):
    """Create the window and everything it drives; the caller owns the QApplication."""
    from scoring.match import MatchStore
    from ui.dashboard.main_window import MainWindow
    from ui.dashboard.vision_worker import CameraWorker, default_source

    i18n.set_language(opts.lang)
    app = QApplication.instance()
    if app is not None:
        i18n.install_qt_translations(app)
    store = MatchStore.open(opts.db)
    window = MainWindow(operator=opts.operator, store=store)
    window.showdowns.save_examples = opts.save_examples
    panel = window.match_panel
    assert panel is not None
    if opts.match is not None:
        panel.open_match(opts.match)
    else:
        matches = store.list_matches()
        if matches:
            panel.open_match(matches[-1].id)
        else:
            panel.new_match(default_ruleset(), {}, i18n.default_players(), 0)
    if opts.sync:
        try:
            start_sync(window, store, panel.match_id, opts.outbox)
        except BaseException:
            window.close()
            window.deleteLater()
            store.close()
            raise
    if opts.hand is not None:
        try:
            record = read_json_file(opts.hand)
        except (OSError, ValueError) as exc:
            raise ValueError(f"cannot read the hand record: {exc}") from None
        window.session.load(record, source="sample" if opts.hand == SAMPLE_HAND else "file")
    if opts.port != "none":
        window.table_bridge.connect_to(opts.port or "simulator")
    if opts.camera != "none":
        source = opts.camera if opts.camera is not None else default_source()
        match = panel.match
        worker = CameraWorker(source, ruleset=match.ruleset if match else None,
                              options=dict(match.options) if match else None,
                              dealer=match.dealer if match else 0, realtime=opts.realtime,
                              loop=opts.loop,
                              models=opts.models, bottom_seat=opts.bottom_seat,
                              detector=opts.detector, stable_s=opts.stable_s,
                              stable_readings=opts.stable_readings, parent=window)
        window.attach_camera(worker)
        worker.start()
    return window


def start_sync(window: Any, store: Any, match_id: int | None, outbox: Path | None) -> None:
    """Push the open match in the background to the server ``mjtable match push`` bound it to;
    the status bar shows how far the server is."""
    from PySide6.QtWidgets import QLabel

    from ui.outbox import Outbox, Syncer

    with Outbox(outbox) as box:
        if match_id is None or box.binding(match_id) is None:
            raise ValueError(f"match {match_id} is not bound to a tournament server: run "
                             f"`mjtable match push {match_id} --server URL --round R --table T "
                             "--token TOKEN` once")
    window.syncer = Syncer(store, match_id, outbox)
    label = QLabel(window.syncer.state())
    window.statusBar().addPermanentWidget(label)
    timer = QTimer(window)
    timer.timeout.connect(lambda: label.setText(window.syncer.state()))
    timer.start(1000)
    window.destroyed.connect(window.syncer.close)


def save_screenshots(window: Any, path: Path, tabs: tuple[str, ...] = ()) -> list[Path]:
    """The window as PNG: once as it is, or once per named tab (``PATH-TAB.png``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    pages = {"score": window.scoring, "match": window.match_panel, "table": window.table_panel}
    if not tabs:
        window.grab().save(str(path))
        return [path]
    saved = []
    for tab in tabs:
        page = pages.get(tab)
        if page is None:
            raise ValueError(f"no {tab!r} tab; choose from {', '.join(pages)}")
        window.tabs.setCurrentWidget(page)
        QApplication.processEvents()
        out = path.with_name(f"{path.stem}-{tab}{path.suffix}")
        window.grab().save(str(out))
        saved.append(out)
    return saved


def run(opts: RunOptions) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = build_window(opts)
    window.show()
    # Qt objects caught in reference cycles must be destroyed on the GUI thread; automatic
    # collection would run in whichever thread allocates (camera, table driver) and crash there
    gc.disable()
    collector = QTimer(window)
    collector.timeout.connect(gc.collect)
    collector.start(2000)
    if opts.screenshot is not None or opts.exit_after is not None:
        delay = int((opts.exit_after if opts.exit_after is not None else 2.0) * 1000)

        def finish() -> None:
            if opts.screenshot is not None:
                save_screenshots(window, opts.screenshot, opts.tabs)
            window.close()
            app.quit()

        QTimer.singleShot(delay, finish)
    try:
        code = int(app.exec())
    finally:
        # tear down on the GUI thread while the application still exists: left to the
        # interpreter's shutdown, collecting Qt wrappers crashes in shiboken
        window.close()
        if getattr(window, "syncer", None) is not None:
            window.syncer.close()
        collector.stop()
        window.deleteLater()
        app.processEvents()
        gc.enable()
        gc.collect()
    return code
