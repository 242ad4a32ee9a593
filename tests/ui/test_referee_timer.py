"""The optional referee timer: Shanghai's 15 s 换牌 and 20 s discard/claim clocks.

Time is a fake clock moved by hand; the panel's QTimer polls every few milliseconds, so no test
sleeps.
"""

from __future__ import annotations

import pytest

from scoring.rulesets.shanghai.table import EXCHANGE_SECONDS, TURN_SECONDS
from ui.dashboard import i18n
from ui.dashboard.referee_clock import RefereeClock
from ui.dashboard.timer_panel import TimerPanel


class FakeTime:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_clock_counts_down_and_fires_once() -> None:
    now = FakeTime()
    clock = RefereeClock(now)
    fired: list[tuple[str, int]] = []
    clock.expired.connect(lambda phase, seat: fired.append((phase.key, seat)))
    clock.start("discard", 2)
    assert clock.remaining() == TURN_SECONDS == 20
    now.t += 19.5
    clock.tick()
    assert fired == [] and clock.remaining() == pytest.approx(0.5)
    now.t += 0.5
    clock.tick()
    clock.tick()
    assert fired == [("discard", 2)] and clock.remaining() == 0
    clock.start("exchange", 0)  # a restart arms it again
    assert clock.remaining() == EXCHANGE_SECONDS == 15
    clock.stop()
    now.t += 60
    clock.tick()
    assert fired == [("discard", 2)] and not clock.running
    with pytest.raises(ValueError, match="unknown clock"):
        clock.start("tea", 0)
    with pytest.raises(ValueError, match="out of range"):
        clock.start("claim", 4)


def test_panel_is_off_until_enabled_then_announces_the_timeout(qtbot) -> None:
    i18n.set_language("en")
    now = FakeTime()
    panel = TimerPanel(RefereeClock(now), tick_ms=5)
    qtbot.addWidget(panel)
    assert not panel.buttons["discard"].isEnabled()
    panel.start("discard", 1)
    assert not panel.clock.running  # off by default
    panel.enabled_box.setChecked(True)
    panel.seat.setCurrentIndex(1)
    panel.buttons["discard"].click()
    assert panel.clock.running and "Seat 1 · discard: 20 s" in panel.display.text()
    now.t += TURN_SECONDS
    with qtbot.waitSignal(panel.timedOut, timeout=2000) as blocker:
        pass
    assert blocker.args == ["discard", 1]
    assert "drawn tile is discarded" in panel.last.text()
    panel.start("claim", 3)
    panel.stop_button.click()
    assert not panel.clock.running and panel.display.text() == i18n.tr("timer_idle")


def test_panel_speaks_chinese(qtbot) -> None:
    i18n.set_language("zh")
    try:
        now = FakeTime()
        panel = TimerPanel(RefereeClock(now), tick_ms=5)
        qtbot.addWidget(panel)
        panel.enabled_box.setChecked(True)
        panel.start("exchange", 2)
        assert "换牌: 15 s" in panel.display.text()
        now.t += EXCHANGE_SECONDS
        with qtbot.waitSignal(panel.timedOut, timeout=2000):
            pass
        assert "2号座位超时" in panel.last.text() and "不能换牌" in panel.last.text()
    finally:
        i18n.set_language("en")


def test_main_window_has_the_timer_tab(window) -> None:
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert i18n.tr("timer") in titles
    assert not window.timer_panel.enabled_box.isChecked()
