"""`cdstore mcp --scan ROOT…` over a tree laid out as simulators and Macs keep app data: the stores the scan finds
are listed and read by path and by @app id, compared with `cdstore scan/count/fetch`; nothing outside the roots
can be named (a file outside, `..`, links pointing out, a file under the roots that is not a store); and not a
byte under the tree changes, nor is any file created there."""

import hashlib
import os
import plistlib
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from conftest import CDSTORE, CORPUS, cli, error_text, field, result_json, run, session
from test_read_tools import cli_json

METADATA = ".com.apple.mobile_container_manager.metadata.plist"
SUPPORT = "Library/Application Support"


def container(root, relative, app):
    """An iOS container folder whose metadata plist (binary, as devices write it) names `app`."""
    folder = root / relative
    folder.mkdir(parents=True)
    (folder / METADATA).write_bytes(plistlib.dumps({"MCMMetadataIdentifier": app, "MCMMetadataVersion": 6},
                                                   fmt=plistlib.FMT_BINARY))
    return folder


def copy_store(source, target):
    """`source` and its companions copied to `target`."""
    target.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        if Path(str(source) + suffix).exists():
            shutil.copyfile(str(source) + suffix, str(target) + suffix)
    return target


def commit_into_wal(store):
    """Renames the first department in a commit that stays in the store's -wal, as a copy of a device mid-use
    leaves it: the files are copied aside while the writing connection keeps the log from being checkpointed."""
    writer = sqlite3.connect(store, isolation_level=None)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("UPDATE ZDEPARTMENT SET ZNAME = 'Only in the WAL' WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZDEPARTMENT)")
    for suffix in ("", "-wal"):
        shutil.copyfile(str(store) + suffix, str(store) + suffix + ".aside")
    writer.close()
    for suffix in ("", "-wal", "-shm"):
        Path(str(store) + suffix).unlink(missing_ok=True)
    for suffix in ("", "-wal"):
        os.rename(str(store) + suffix + ".aside", str(store) + suffix)
    assert Path(str(store) + "-wal").stat().st_size > 0


@pytest.fixture(scope="module")
def tree(workdir, company_store):
    """The tree, its roots and what the tests look for in it.

    - `Devices/D1`: `com.example.company` installed twice (the demo store; the older container a day older), its
      app group `group.com.example.company` (a corpus store), and beside the store a cookie file that is no store;
    - `Devices/D2`: `com.example.corpus` with two corpus stores (`A.sqlite`, `B.sqlite`: two names), and
      `com.example.wal`, a demo store named `Notes` whose last commit is only in its `-wal`;
    - `Mac/Library/Containers/com.example.mac/…/Mac.sqlite` (a corpus store with its empty -wal and -shm);
    - `outside/Secret.sqlite`, a store beside the roots, not under them, with links to it (and to its folder)
      from under `Devices`."""
    assert CORPUS.is_dir(), f"the corpus is missing: {CORPUS}"
    root = workdir / "scan-tree"
    devices, mac, outside = root / "Devices", root / "Mac", root / "outside"
    d1, d2 = "D1/data/Containers", "D2/data/Containers"
    old = container(devices, f"{d1}/Data/Application/0A1B2C3D-0000-0000-0000-000000000001", "com.example.company")
    old_store = copy_store(company_store, old / SUPPORT / "Company.sqlite")
    day_ago = time.time() - 86400
    os.utime(old_store, (day_ago, day_ago))
    current = container(devices, f"{d1}/Data/Application/0A1B2C3D-0000-0000-0000-000000000002", "com.example.company")
    current_store = copy_store(company_store, current / SUPPORT / "Company.sqlite")
    (current / "Library/Cookies").mkdir(parents=True)
    (current / "Library/Cookies/Cookies.binarycookies").write_bytes(b"cook\0\0\0\1")
    group = container(devices, f"{d1}/Shared/AppGroup/0A1B2C3D-0000-0000-0000-0000000000AA", "group.com.example.company")
    copy_store(CORPUS / "bignerdranch__CoreDataStack__TestModel/TestModel.sqlite", group / "Library/Shared.sqlite")
    corpus = container(devices, f"{d2}/Data/Application/0A1B2C3D-0000-0000-0000-000000000003", "com.example.corpus")
    copy_store(CORPUS / "mwkirk__MWKCoreData__Stores/MWKCoreDataTests.sqlite", corpus / "Library/A.sqlite")
    copy_store(CORPUS / "contentful__contentful-persistence.swift__Test/Test.sqlite", corpus / "Library/B.sqlite")
    wal = container(devices, f"{d2}/Data/Application/0A1B2C3D-0000-0000-0000-000000000004", "com.example.wal")
    wal_store = copy_store(company_store, wal / "Documents/Notes")
    commit_into_wal(wal_store)
    copy_store(CORPUS / "Karim-ezzedine__CartKit__CartStorage_v1/CartStorage_v1.sqlite",
               mac / f"Library/Containers/com.example.mac/Data/{SUPPORT}/Mac.sqlite")
    secret = copy_store(company_store, outside / "Secret.sqlite")
    (devices / "D1/link.sqlite").symlink_to(secret)
    (devices / "D1/outside-folder").symlink_to(outside, target_is_directory=True)
    return {"root": root, "roots": [str(devices), str(mac)], "current": current_store, "old": old_store,
            "wal": wal_store, "secret": secret, "cookie": current / "Library/Cookies/Cookies.binarycookies"}


def everything_under(root):
    """Every file under `root` (links as where they point, not followed) with its digest."""
    files = {}
    for folder, folders, names in os.walk(root):
        for name in folders + names:
            path = Path(folder) / name
            if path.is_symlink():
                files[str(path)] = "-> " + os.readlink(path)
            elif path.is_file():
                files[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return files


def scan_session(tree):
    return session("--scan", *tree["roots"])


def test_lists_what_scan_finds_and_reads_each_store_by_path(tree):
    before = everything_under(tree["root"])
    scanned = {entry["path"]: entry for entry in cli_json("scan", *tree["roots"])}

    async def body():
        async with scan_session(tree) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            assert set(tools) == {"list_stores", "describe_store", "describe_model", "fetch", "count", "project",
                                  "get_object", "history"}
            schema = field(tools["count"], "inputSchema", "input_schema")
            assert "store" in schema["required"] and "store" in schema["properties"]
            listed = result_json(await client.call_tool("list_stores", {}))
            stores = {entry["path"]: entry for entry in listed["stores"]}
            assert set(stores) == set(scanned) and listed["count"] == len(scanned)
            assert str(tree["secret"]) not in stores
            for path, entry in stores.items():
                assert entry["app"] == scanned[path]["app"] and entry["objects"] == scanned[path]["objects"], path
                assert entry["entities"] == scanned[path]["entities"], path
            assert stores[str(tree["current"])]["id"] == "@com.example.company"
            assert stores[str(tree["old"])]["id"] is None
            only = result_json(await client.call_tool("list_stores", {"app": "@com.example.corpus"}))
            assert {entry["file"] for entry in only["stores"]} == {"A.sqlite", "B.sqlite"}

            for path, entry in stores.items():
                described = result_json(await client.call_tool("describe_store", {"store": path}))
                assert described["path"] == path and described["read_only"] is True
                names = [e["name"] for e in described["entities"] if not e.get("abstract")]
                for entity in names[:3]:
                    counted = result_json(await client.call_tool("count", {"store": path, "entity": entity}))
                    assert counted["count"] == int(cli("count", entity, "--store", path, "--immutable")), (path, entity)
                    fetched = result_json(await client.call_tool("fetch", {"store": path, "entity": entity, "limit": 2}))
                    if fetched["objects"]:
                        got = result_json(await client.call_tool("get_object", {"store": path, "id": fetched["objects"][0]["_id"]}))
                        assert got["_id"] == fetched["objects"][0]["_id"]
                model = result_json(await client.call_tool("describe_model", {"store": path}))
                assert len(model["entities"]) == len(described["entities"])
                assert "transactions" in result_json(await client.call_tool("history", {"store": path, "limit": 2}))
    run(body())
    assert everything_under(tree["root"]) == before, "a file under the tree changed, or one was created"


def test_reads_stores_by_app_id_as_store_at_id_does(tree):
    before = everything_under(tree["root"])

    async def body():
        async with scan_session(tree) as client:
            latest = result_json(await client.call_tool("describe_store", {"store": "@com.example.company"}))
            assert latest["path"] == str(tree["current"])
            counted = result_json(await client.call_tool("count", {"store": "@com.example.company", "entity": "Employee"}))
            assert counted["count"] == int(cli("count", "Employee", "--store", str(tree["current"]), "--immutable"))
            group = result_json(await client.call_tool("describe_store", {"store": "@group.com.example.company"}))
            assert group["path"].endswith("/Library/Shared.sqlite")
            assert "A.sqlite" in error_text(await client.call_tool("describe_store", {"store": "@com.example.corpus"}))
            one = result_json(await client.call_tool("describe_store", {"store": "@com.example.corpus/B.sqlite"}))
            assert one["path"].endswith("/Library/B.sqlite")
            assert "no store" in error_text(await client.call_tool("count", {"store": "@com.example.nothing", "entity": "X"}))
            # The store's last commit is only in its -wal: read, as scan reads it, from a private copy with the log.
            fetched = result_json(await client.call_tool("fetch", {"store": "@com.example.wal", "entity": "Department",
                                                                   "where": "name == 'Only in the WAL'"}))
            assert len(fetched["objects"]) == 1
            expected = cli_json("fetch", "Department", "--store", str(tree["wal"]), "--immutable",
                                "--where", "name == 'Only in the WAL'")
            assert fetched["objects"] == expected
            # A bare app id is not a path: the error says how to name it.
            assert "@com.example.company" in error_text(await client.call_tool("describe_store", {"store": "com.example.company"}))
    run(body())
    assert everything_under(tree["root"]) == before


def test_nothing_outside_the_scan_can_be_named(tree):
    before = everything_under(tree["root"])
    devices = tree["roots"][0]
    hostile = [
        "/etc/passwd", "/etc", "/", "", " ", str(tree["secret"]),
        f"{devices}/../outside/Secret.sqlite", f"{devices}/D1/../../outside/Secret.sqlite",
        f"{devices}/D1/link.sqlite", f"{devices}/D1/outside-folder/Secret.sqlite",
        str(tree["cookie"]), devices, f"{devices}/D1", f"{devices}/nope.sqlite", "~/.ssh/id_rsa",
        "../../../../../../etc/passwd", "file:///etc/passwd", str(tree["current"]) + "\0", "@", "@/", "@..",
        "@../../etc/passwd", "@com.example.company/../../outside/Secret.sqlite", "x" * 5000,
    ]

    async def body():
        async with scan_session(tree) as client:
            for name in ["describe_store", "count", "fetch", "project", "get_object", "history", "describe_model"]:
                for reference in hostile:
                    arguments = {"store": reference, "entity": "Employee", "properties": ["name"], "id": "Employee/p1"}
                    schema_names = {"describe_store": [], "describe_model": ["entity"], "count": ["entity"],
                                    "fetch": ["entity"], "project": ["entity", "properties"], "get_object": ["id"],
                                    "history": []}[name]
                    arguments = {key: value for key, value in arguments.items() if key == "store" or key in schema_names}
                    text = error_text(await client.call_tool(name, arguments))
                    assert text.startswith("store:"), (name, reference, text)
                    assert str(tree["secret"]) not in text.replace(reference, ""), text
            # Without a store argument: the tool says it needs one.
            assert error_text(await client.call_tool("count", {"entity": "Employee"})).startswith("store:")
            # Resources name their store too, under the same rules.
            listed = (await client.list_resources()).resources
            assert listed and all("store=" in str(resource.uri) for resource in listed)
            model = await client.read_resource(str(listed[0].uri))
            assert '"cdstore-model"' in model.contents[0].text
            for uri in ["cdstore://model?store=/etc/passwd", f"cdstore://model?store={tree['secret']}", "cdstore://model"]:
                with pytest.raises(Exception):
                    await client.read_resource(uri)
            # Writing tools are not offered, and a call to one is refused.
            with pytest.raises(Exception):
                await client.call_tool("delete", {"store": str(tree["current"]), "entity": "Company", "dry_run": False})
            assert result_json(await client.call_tool("count", {"store": str(tree["current"]), "entity": "Company"}))["count"] == 1
    run(body())
    assert everything_under(tree["root"]) == before


def test_scan_refuses_writes_a_model_and_a_missing_root(tree):
    for extra in (["--allow-writes"], ["--model", "Schemas/Company.json"], ["--store", str(tree["current"])]):
        done = subprocess.run([CDSTORE, "mcp", "--scan", *tree["roots"], *extra], capture_output=True, text=True,
                              timeout=30, stdin=subprocess.DEVNULL)
        assert done.returncode != 0 and "--scan" in done.stderr, (extra, done.stderr)
    done = subprocess.run([CDSTORE, "mcp", "--scan", str(tree["root"] / "missing")], capture_output=True, text=True,
                          timeout=30, stdin=subprocess.DEVNULL)
    assert done.returncode != 0 and "no such file" in done.stderr


def test_project_pages_through_everything_with_its_cursor(company_store):
    store = str(company_store)

    async def body():
        async with session("--store", store) as client:
            for size, arguments, flags in [
                (2, {"properties": ["lastName", "firstName", "salary"], "sort": ["lastName", "firstName"]},
                 ["--properties", "lastName,firstName,salary", "--sort", "lastName", "--sort", "firstName"]),
                (1, {"properties": ["department.name", "count:employeeNumber AS people"], "group_by": ["department.name"],
                     "sort": ["department.name"]},
                 ["--properties", "department.name,count:employeeNumber AS people", "--group-by", "department.name",
                  "--sort", "department.name"]),
            ]:
                every = cli_json("project", "Employee", "--store", store, *flags)
                assert len(every) > size, every
                pages, cursor, offset = [], None, 0
                while True:
                    call = {"entity": "Employee", "limit": size, **arguments}
                    if cursor:
                        call["cursor"] = cursor
                    page = result_json(await client.call_tool("project", call))
                    expected = cli_json("project", "Employee", "--store", store, *flags, "--limit", str(size),
                                        "--offset", str(offset))
                    assert page["rows"] == expected, (arguments, offset)
                    pages += page["rows"]
                    offset += len(page["rows"])
                    cursor = page.get("next_cursor")
                    assert page["truncated"] == (cursor is not None)
                    if not cursor:
                        break
                assert pages == every
            first = result_json(await client.call_tool("project", {"entity": "Employee", "properties": ["lastName"], "limit": 1}))
            other = await client.call_tool("project", {"entity": "Employee", "properties": ["firstName"],
                                                       "cursor": first["next_cursor"]})
            assert "another query" in error_text(other)
    run(body())
