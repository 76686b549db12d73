#!/usr/bin/python3
"""Real-browser tests of `cdstore serve`: headless Chromium driven by Selenium (Debian's chromium,
chromium-driver and python3-selenium, which `make setup` installs).

Makes a demo store with hostile strings, starts `cdstore serve --port 0` on it, browses home -> entity ->
filter -> object -> relationship link, and checks that stored markup shows as text and never runs, that no
page logs a console error (a Content-Security-Policy violation is one), that the server stops on SIGINT, and
that the store's files are byte for byte what they were. Ends with `N passed, N failed`.

    /usr/bin/python3 Tests/Browser/browse_test.py .build/debug/cdstore [--screenshot docs/images/serve-entity.png]
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.common.by import By

MODEL = {
    "format": "cdstore-model", "formatVersion": 1, "entities": [
        {"name": "Department", "attributes": [
            {"name": "name", "type": "String"},
            {"name": "budget", "type": "Double", "optional": True}],
         "relationships": [{"name": "people", "destination": "Person", "inverse": "department", "toMany": True,
                            "optional": True}]},
        {"name": "Person", "attributes": [
            {"name": "name", "type": "String"},
            {"name": "age", "type": "Integer 32", "optional": True},
            {"name": "email", "type": "String", "optional": True},
            {"name": "notes", "type": "String", "optional": True}],
         "relationships": [{"name": "department", "destination": "Department", "inverse": "people",
                            "optional": True}]}]}

SCRIPT = "<script>alert(1)</script>"
IMAGE = "<img src=x onerror=alert(2)>"
QUOTE = "\"><b>bold</b>"

results = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    if condition:
        results["passed"] += 1
        print(f"ok: {name}")
    else:
        results["failed"] += 1
        print(f"FAILED: {name} {detail}")


def make_store(cdstore, folder):
    model = os.path.join(folder, "Demo.json")
    store = os.path.join(folder, "demo.sqlite")
    with open(model, "w") as f:
        json.dump(MODEL, f)
    people = [{"name": SCRIPT, "age": 31, "email": "ann@example.com", "notes": IMAGE + " and more text " * 20},
              {"name": "Bob Marley", "age": 36, "email": "bob@example.com", "notes": "plain"},
              {"name": "Chen Wei", "age": 28, "email": None, "notes": None}]
    departments = [{"name": QUOTE, "budget": 120000.5, "people": people[:2]},
                   {"name": "Research", "budget": 98000, "people": people[2:]}]
    for i in range(40):
        departments[1]["people"].append({"name": f"Member {i:02d}", "age": 20 + i % 30,
                                         "email": f"member{i}@example.com", "notes": "note " * (i % 5)})
    subprocess.run([cdstore, "insert", "Department", "--store", store, "--model", model],
                   input=json.dumps(departments), text=True, check=True, capture_output=True)
    return store


def snapshot(store):
    files = {}
    for suffix in ["", "-wal", "-shm"]:
        path = store + suffix
        files[suffix] = open(path, "rb").read() if os.path.exists(path) else None
    return files


def no_alert(driver):
    try:
        driver.switch_to.alert
        return False
    except NoAlertPresentException:
        return True


def console_errors(driver):
    """The errors logged since the last call (reading the log empties it)."""
    return [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]


def check_console(name, driver):
    errors = console_errors(driver)
    check(name, not errors, str(errors))


def main():
    cdstore = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/cdstore")
    screenshot = sys.argv[sys.argv.index("--screenshot") + 1] if "--screenshot" in sys.argv else None
    folder = tempfile.mkdtemp(prefix="cdstore-browser-")
    store = make_store(cdstore, folder)
    before = snapshot(store)
    server = subprocess.Popen([cdstore, "serve", "--store", store, "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    url = server.stdout.readline().strip()
    check("first stdout line is the URL", url.startswith("http://127.0.0.1:") and url.endswith("/"), repr(url))

    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,800"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        # Home: the store and its entities.
        driver.get(url)
        check("home loads", "demo.sqlite" in driver.title, driver.title)
        rows = driver.find_elements(By.CSS_SELECTOR, "#entities tbody tr")
        check("home lists both entities", len(rows) == 2, str(len(rows)))
        check_console("home has no console errors", driver)

        # Entity page.
        driver.find_element(By.LINK_TEXT, "Person").click()
        check("entity page loads", driver.find_element(By.TAG_NAME, "h1").text == "Person")
        cells = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#objects td")]
        check("a stored <script> shows as text", SCRIPT in cells, str(cells[:12]))
        check("no stored markup became elements",
              not driver.find_elements(By.CSS_SELECTOR, "main script, main img, #objects b"))
        check("no alert ran", no_alert(driver))
        check_console("entity page has no console errors", driver)
        check("long text is cut in the table", any("characters)" in cell for cell in cells))
        if screenshot:
            driver.get(url + "Person?where=age%20%3E%3D%2028%20OR%20notes%20CONTAINS%20%22%3C%22&limit=12")
            driver.save_screenshot(screenshot)

        # Sorting by a column, then the next page by key.
        driver.get(url + "Person")
        driver.find_element(By.LINK_TEXT, "age").click()
        headers = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#objects thead th")]
        column = next(i for i, text in enumerate(headers) if text.startswith("age")) + 1
        ages = [int(td.text) for td in driver.find_elements(By.CSS_SELECTOR, f"#objects tbody tr td:nth-child({column})")]
        check("clicking a column sorts by it", len(ages) == 43 and ages == sorted(ages), str(ages[:8]))
        marked = driver.find_element(By.CSS_SELECTOR, f"#objects thead th:nth-child({column})").text
        check("the sorted column is marked", marked == "age ▲", marked)
        driver.get(url + "Person?limit=10")
        driver.find_element(By.PARTIAL_LINK_TEXT, "next").click()
        check("next page is paged by key", "after=10" in driver.current_url, driver.current_url)

        # Filter with the predicate box; the query lands in the URL.
        driver.get(url + "Person")
        box = driver.find_element(By.NAME, "where")
        box.send_keys("age > 30 AND email ENDSWITH \"example.com\"")
        box.submit()
        # submit() returns before the browser has navigated: reading the URL at once failed now and then.
        try:
            WebDriverWait(driver, 10).until(lambda d: "where=age" in d.current_url)
        except Exception:
            pass
        check("the filter is in the URL", "where=age" in driver.current_url, driver.current_url)
        matched = driver.find_elements(By.CSS_SELECTOR, "#objects tbody tr")
        check("the filter selects objects", 0 < len(matched) < 43, str(len(matched)))
        check_console("filtered page has no console errors", driver)

        box = driver.find_element(By.NAME, "where")
        box.clear()
        box.send_keys("age >> 3")
        box.submit()
        error = driver.find_elements(By.ID, "predicate-error")
        check("a wrong predicate shows its position", bool(error) and "column" in error[0].text,
              error[0].text if error else "no error box")
        logged = console_errors(driver)
        check("the wrong predicate's page logs nothing but its 400", all("status of 400" in e["message"] for e in logged),
              str(logged))

        # Object page, then its relationship link.
        driver.get(url + "Person")
        driver.find_element(By.LINK_TEXT, "p1").click()
        check("object page loads", driver.find_element(By.TAG_NAME, "h1").text == "Person p1")
        values = driver.find_element(By.ID, "attributes").text
        check("object page shows markup as text", IMAGE in values and SCRIPT in values)
        check("object page shows the whole long text", (" and more text " * 20).strip() in values)
        check("no alert ran on the object page", no_alert(driver))
        driver.find_element(By.LINK_TEXT, "Department/p1").click()
        check("relationship link leads to the related object", driver.find_element(By.TAG_NAME, "h1").text == "Department p1")
        check("a quote-breaking name shows as text", QUOTE in driver.find_element(By.ID, "attributes").text
              and not driver.find_elements(By.CSS_SELECTOR, "main b"))
        people = driver.find_element(By.ID, "rel-people").text
        check("the to-many side lists its objects", "Person/p1" in people and "Person/p2" in people, people)
        check_console("object pages have no console errors", driver)

        # Model and export links.
        driver.get(url + "_model")
        check("model page loads", driver.find_element(By.TAG_NAME, "h1").text == "Model")
        driver.get(url + "Person")
        exports = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, ".exports a")]
        check("export links for NDJSON, JSON and CSV", sum("/_export/Person?format=" in (h or "") for h in exports) == 3,
              str(exports))
    except Exception as error:  # a missing element or a failed step: counted, and the rest still runs
        check("browsing went through", False, f"{type(error).__name__}: {error}")
    finally:
        driver.quit()
        server.send_signal(signal.SIGINT)
        try:
            status = server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            status = None
        check("the server stops cleanly on SIGINT", status == 0, f"status {status}: {server.stderr.read()[-400:]}")
        after = snapshot(store)
        check("store and -wal unchanged", before[""] == after[""] and (before["-wal"] or b"") == (after["-wal"] or b""))
        check("-shm unchanged or not created", before["-shm"] == after["-shm"] or (before["-shm"] is None),
              "the -shm existed before and changed")
    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
