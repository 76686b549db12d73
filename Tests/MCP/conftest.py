"""Shared set-up of the MCP tests: the cdstore binary, stores built from Schemas/ and copies of corpus stores,
and a client session of the Python MCP SDK (`mcp` on PyPI) on `cdstore mcp`."""

import asyncio
import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[2]
CDSTORE = os.environ.get("CDSTORE", str(ROOT / ".build/debug/cdstore"))
CORPUS = Path(os.environ.get("CDSTORE_CORPUS", ROOT.parent / "shared/corpus/stores"))
if not CORPUS.is_dir():
    CORPUS = Path("/work/shared/corpus/stores")


def cli(*args, check=True):
    """Runs the cdstore command line; returns its standard output."""
    done = subprocess.run([CDSTORE, *args], capture_output=True, text=True, timeout=120)
    if check and done.returncode != 0:
        raise AssertionError(f"cdstore {' '.join(args)} failed ({done.returncode}): {done.stderr}")
    return done.stdout


def file_bytes(store, shm=False):
    """The digest of a store file and its -wal (and, with `shm`, its -shm) companions, whichever exist.

    SQLite's -shm is the WAL's shared-memory index, which any reader of a WAL store may rewrite; the store's
    content is the file and its -wal. Opening a WAL-mode store whose -wal is missing makes an empty one (SQLite
    does, for any reader): an empty -wal counts as none. `--immutable` leaves every companion alone."""
    digest = {}
    for suffix in ("", "-wal", "-journal") + (("-shm",) if shm else ()):
        path = Path(str(store) + suffix)
        if path.exists() and (shm or suffix != "-wal" or path.stat().st_size > 0):
            digest[suffix] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digest


@pytest.fixture(scope="session")
def workdir():
    with tempfile.TemporaryDirectory(prefix="cdstore-mcp-") as directory:
        yield Path(directory)


@pytest.fixture(scope="session")
def company_store(workdir):
    """The README's demo store: Schemas/Company.json with Schemas/demo/Company.json inserted."""
    store = workdir / "Company.sqlite"
    cli("insert", "Company", "--file", str(ROOT / "Schemas/demo/Company.json"),
        "--model", str(ROOT / "Schemas/Company.json"), "--store", str(store))
    return store


@pytest.fixture()
def writable_company(workdir, company_store):
    """A fresh copy of the demo store for a test that writes."""
    directory = Path(tempfile.mkdtemp(dir=workdir))
    copy = directory / "Company.sqlite"
    for suffix in ("", "-wal", "-shm"):
        source = Path(str(company_store) + suffix)
        if source.exists():
            shutil.copyfile(source, str(copy) + suffix)
    return copy


def corpus_stores(workdir):
    """Every store of the corpus, copied (opening a WAL store can write beside it)."""
    assert CORPUS.is_dir(), f"the corpus is missing: {CORPUS}"
    copies = []
    for folder in sorted(CORPUS.iterdir()):
        for store in sorted(folder.glob("*.sqlite")):
            target = workdir / "corpus" / folder.name
            target.mkdir(parents=True, exist_ok=True)
            for suffix in ("", "-wal", "-shm"):
                source = Path(str(store) + suffix)
                if source.exists():
                    shutil.copyfile(source, target / (store.name + suffix))
            copies.append(target / store.name)
    assert copies, "the corpus has no stores"
    return copies


@contextlib.asynccontextmanager
async def session(*args):
    """An initialized MCP client session on `cdstore mcp ARGS`."""
    params = StdioServerParameters(command=CDSTORE, args=["mcp", *args])
    with open(os.devnull, "w") as errors:
        async with stdio_client(params, errlog=errors) as (read, write):
            async with ClientSession(read, write) as client:
                await client.initialize()
                yield client


def run(coroutine):
    """Runs a test's coroutine to its end, within a minute."""
    return asyncio.run(asyncio.wait_for(coroutine, 60))


def field(model, camel, snake):
    """A field of an SDK type: `mcp` 1.x names them as the protocol does (isError), 2.x in snake case."""
    return getattr(model, snake) if snake in type(model).model_fields else getattr(model, camel)


def result_json(result):
    """A tool result's JSON: its text content parsed, checked against its structured content."""
    assert not field(result, "isError", "is_error"), result.content[0].text
    value = json.loads(result.content[0].text)
    assert value == field(result, "structuredContent", "structured_content")
    return value


def error_text(result):
    """A tool result that must be an error: its text."""
    assert field(result, "isError", "is_error"), f"expected an error, got {result.content[0].text[:200]}"
    return result.content[0].text
