"""The pages in a real headless chromium (Debian's, driven by its chromium-driver) against a
real uvicorn server on 127.0.0.1: live standings over server-sent events, a table's page, the
referee desk. Skipped without chromium, except in CI (``CI=true``), where that fails."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.helpers import ORIGIN, logs_for, names, seated_store, wire
from tests.server.live import uvicorn_thread
from ui.server.app import create_app
from ui.server.tokens import issue

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-dev-shm-usage", "--window-size=1200,900"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not (CHROMIUM and DRIVER):
        if os.environ.get("CI") == "true":
            pytest.fail("chromium and chromium-driver are not installed; CI must run the "
                        "browser tests (.ci/run installs them)")
        pytest.skip("chromium and chromium-driver are not installed")
    os.environ.setdefault("SE_OFFLINE", "true")  # selenium never downloads a browser
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="mjtable-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [*FLAGS, f"--user-data-dir={profile}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait_for(driver: Any, check: Any, timeout: float = 15) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: check(d))


def text(driver: Any, css: str) -> str:
    """The element's rendered text, read in one step (a live page re-renders under us)."""
    return str(driver.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", css))


def test_standings_and_a_table_update_live_in_both_languages(browser, db_url):
    store = seated_store(db_url, names(8))
    logs = logs_for(store, 3)
    with uvicorn_thread(create_app(store)) as url:
        browser.get(f"{url}/?lang=zh")
        wait_for(browser, lambda d: "实时" in text(d, "#conn"))
        wait_for(browser, lambda d: "名次" in text(d, "#standings thead"))  # the first event
        assert "每盘、每桌、每轮合计为零" in text(browser, "#zero-sum")
        # a table syncs while the page is open: the page changes without a reload
        store.ingest(1, 1, wire(logs[1]), "table 1", ORIGIN)
        first = store.standings().rows[0]
        assert first.score != 0
        wait_for(browser, lambda d: text(d, "#standings tbody tr:first-child").split()[1:4:2]
                 == [first.player, f"{first.score:g}"])
        browser.get(f"{url}/tables/1/1?lang=en")
        wait_for(browser, lambda d: text(d, "#hands") == "3")
        assert "hand_recorded" in text(browser, "#events")
        store.ingest(1, 2, wire(logs[2][:2]), "table 2", ORIGIN)
        browser.get(f"{url}/tables/1/2?lang=en")
        wait_for(browser, lambda d: text(d, "#hands") == "1")
        store.ingest(1, 2, wire(logs[2]), "table 2", ORIGIN)
        wait_for(browser, lambda d: text(d, "#hands") == "3")  # live, no reload
        browser.get("about:blank")  # the page's event stream ends
    store.close()


def test_the_referee_desk_penalises_and_strikes_a_hand(browser, db_url):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    store = seated_store(db_url, names(8))
    store.ingest(1, 1, wire(logs_for(store, 2)[1]), "table 1", ORIGIN)
    token = issue(store.secret(), "referee", "Wang Li")
    with uvicorn_thread(create_app(store)) as url:
        browser.get(f"{url}/referee?lang=zh")
        browser.find_element(By.ID, "token").send_keys(token)
        form = browser.find_element(By.ID, "f-penalty")
        wait_for(browser, lambda d: len(Select(form.find_element(By.NAME, "player")).options))
        Select(form.find_element(By.NAME, "player")).select_by_visible_text("P03")
        form.find_element(By.NAME, "points").send_keys("-10")
        form.find_element(By.NAME, "why").send_keys("迟到")
        form.find_element(By.TAG_NAME, "button").click()
        wait_for(browser, lambda d: "已保存" in text(d, "#result"))
        assert store.standings().row("P03").adjustments == -10
        browser.get(f"{url}/?lang=zh")  # the standings list it with its reason and referee
        wait_for(browser, lambda d: "P03 -10: 迟到 (裁判 Wang Li" in text(d, "#adjustments"))
        browser.get(f"{url}/referee?lang=zh")  # the token stays in the tab
        assert browser.find_element(By.ID, "token").get_attribute("value") == token
        form = browser.find_element(By.ID, "f-amend")
        for name, value in (("round", "1"), ("table", "1"), ("target", "3"),
                            ("why", "misread")):
            form.find_element(By.NAME, name).send_keys(value)
        form.find_element(By.NAME, "strike").click()
        form.find_element(By.TAG_NAME, "button").click()
        wait_for(browser, lambda d: "struck" in text(d, "#result"))
        assert store.standings().tables[0].hands == 1
        wait_for(browser, lambda d: "misread" in text(d, "#writes"))
        assert "Wang Li" in text(browser, "#writes")
        form = browser.find_element(By.ID, "f-substitute")
        for name, value in (("round", "1"), ("table", "1"), ("seat", "2"),
                            ("substitute", "替补甲"), ("from_hand", "2"), ("why", "生病")):
            form.find_element(By.NAME, name).send_keys(value)
        form.find_element(By.TAG_NAME, "button").click()
        wait_for(browser, lambda d: "substituted" in text(d, "#result"))
        seated = store.seating(1, 1).players[2]
        browser.get(f"{url}/tables/1/1?lang=zh")
        wait_for(browser, lambda d: f"{seated} (替补甲)" in text(d, "#seats"))
        browser.get(f"{url}/referee?lang=zh")
        # a wrong token is refused in the page, and nothing is written
        browser.find_element(By.ID, "token").clear()
        browser.find_element(By.ID, "token").send_keys(token[:-4] + "AAAA")
        form = browser.find_element(By.ID, "f-close")
        form.find_element(By.NAME, "round").send_keys("1")
        form.find_element(By.NAME, "why").send_keys("time")
        form.find_element(By.TAG_NAME, "button").click()
        wait_for(browser, lambda d: "valid token" in text(d, "#result"))
        assert store.standings().closed_rounds == ()
        browser.get("about:blank")
    store.close()
