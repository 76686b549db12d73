#!/usr/bin/env python3
"""Rebuilds the committed seed corpora in Fuzz/Corpus/ from real inputs.

Run from the repository root: python3 Fuzz/Scripts/make-seeds.py [CDSTORE_BINARY]
Sources: ../shared/corpus (model contents, .mom files, models cached in stores), the tests
(predicate strings, JSON/NDJSON/CSV snapshots and snippets) and Schemas/. The binary, if given, compiles XML models
into cdstore JSON models for the json-model seeds. Seeds are named by content hash, so reruns add nothing twice.
"""
import glob, hashlib, os, re, sqlite3, subprocess, sys, tempfile, zlib, shutil

ROOT = os.getcwd()
SHARED = os.path.join(ROOT, "..", "shared", "corpus")
OUT = os.path.join(ROOT, "Fuzz", "Corpus")


def save(target, data):
    if isinstance(data, str):
        data = data.encode()
    if not data:
        return
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


def swift_strings(text):
    """String literals in Swift source: #"raw"#, "plain" (escapes undone roughly). Multi-line ones are skipped."""
    out = [m.group(1) for m in re.finditer(r'#"(.*?)"#', text)]
    text = re.sub(r'#"(.*?)"#', "", text)
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', text):
        s = m.group(1)
        if "\\(" in s:
            continue
        s = s.replace('\\"', '"').replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")
        out.append(s)
    return out


def predicates():
    seen = set()
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "CDStorePredicateTests", "*.swift"))):
        for s in swift_strings(open(path).read()):
            if len(s) >= 4 and any(c in s for c in "=<>()@$%") and s not in seen:
                seen.add(s)
    for s in sorted(seen, key=lambda s: (len(s), s))[::max(1, len(seen) // 80)]:
        save("predicate", s)


def xml_models():
    files = sorted(glob.glob(os.path.join(SHARED, "models", "**", "contents"), recursive=True))
    files += sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "**", "contents"), recursive=True))
    files += sorted(glob.glob(os.path.join(ROOT, "Schemas", "**", "contents"), recursive=True))
    # One version per model bundle, smallest first, up to 40 files and 1.5 MB.
    picked, bundles, total = [], set(), 0
    for path in sorted(files, key=os.path.getsize):
        bundle = path.split(".xcdatamodeld")[0]
        size = os.path.getsize(path)
        if bundle in bundles or total + size > 1_500_000 or len(picked) >= 40:
            continue
        bundles.add(bundle)
        picked.append(path)
        total += size
    for path in picked:
        save("xml-model", open(path, "rb").read())
    return picked


def json_models(xml_files, binary):
    for path in glob.glob(os.path.join(ROOT, "Schemas", "**", "*.json"), recursive=True):
        save("json-model", open(path, "rb").read())
    if not binary:
        return
    for path in xml_files[:15]:
        r = subprocess.run([binary, "model", "compile", path], capture_output=True)
        if r.returncode == 0:
            save("json-model", r.stdout)


def compiled_models():
    for path in glob.glob(os.path.join(SHARED, "compiled", "**", "*.mom"), recursive=True):
        save("compiled-model", open(path, "rb").read())
        save("plist", open(path, "rb").read())
    for path in glob.glob(os.path.join(SHARED, "compiled", "**", "*.plist"), recursive=True):
        save("plist", open(path, "rb").read())
    # The models Core Data caches in stores: raw DEFLATE around the same archive as a .mom.
    for store in sorted(glob.glob(os.path.join(SHARED, "stores", "**", "*.sqlite"), recursive=True)):
        with tempfile.TemporaryDirectory() as tmp:
            for f in glob.glob(store + "*"):
                shutil.copy(f, tmp)
            try:
                db = sqlite3.connect(os.path.join(tmp, os.path.basename(store)))
                for (blob,) in db.execute("SELECT Z_CONTENT FROM Z_MODELCACHE"):
                    mom = zlib.decompress(blob, -15)
                    if len(mom) < 200_000:
                        save("compiled-model", mom)
                db.close()
            except Exception as e:  # stores without a cache
                print("no model cache in", store, e, file=sys.stderr)


def records():
    snaps = os.path.join(ROOT, "Tests", "Snapshots")
    for name, target in [("export.ndjson", "ndjson"), ("fetch-item.ndjson", "ndjson"),
                         ("export.json", "json-records"), ("fetch-item.json", "json-records"),
                         ("project-departments.json", "json-records"), ("fetch-item.csv", "csv")]:
        save(target, open(os.path.join(snaps, name), "rb").read())
    for path in glob.glob(os.path.join(ROOT, "Schemas", "demo", "*")):
        if path.endswith(".ndjson"):
            save("ndjson", open(path, "rb").read())
        elif path.endswith(".csv"):
            save("csv", open(path, "rb").read())
    # Short snippets from the reader tests: a literal with a newline or comma is likely a record.
    for path in glob.glob(os.path.join(ROOT, "Tests", "CDStoreCLITests", "*.swift")) + \
            glob.glob(os.path.join(ROOT, "Tests", "CDStoreJSONTests", "*.swift")):
        for s in swift_strings(open(path).read()):
            if len(s) < 4:
                continue
            if s.lstrip().startswith("{") and "\n" in s:
                save("ndjson", s)
            elif s.lstrip().startswith("["):
                save("json-records", s)
            elif s.lstrip().startswith("{"):
                save("json-records", s)
            elif "," in s and "\n" in s:
                save("csv", s)
    gen = os.path.join(ROOT, "..", "shared", "bench", "gen_people.py")
    if os.path.exists(gen):
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, gen, "--rows", "20", "--out", tmp], check=True, capture_output=True)
            save("csv", open(os.path.join(tmp, "people.csv"), "rb").read())
            save("ndjson", open(os.path.join(tmp, "people.ndjson"), "rb").read())


if __name__ == "__main__":
    predicates()
    picked = xml_models()
    json_models(picked, sys.argv[1] if len(sys.argv) > 1 else None)
    compiled_models()
    records()
    for d in sorted(os.listdir(OUT)):
        files = os.listdir(os.path.join(OUT, d))
        size = sum(os.path.getsize(os.path.join(OUT, d, f)) for f in files)
        print(f"{d}: {len(files)} files, {size // 1024} KB")
