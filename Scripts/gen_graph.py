#!/usr/bin/env python3
"""Deterministic graph benchmark data for Schemas/Company.json: N departments with 10 nested employees each.

    gen_graph.py --departments 100000 --out DIR   # writes DIR/departments.json and DIR/departments.ndjson

departments.json is one JSON array of Department records (for `cdstore insert Department --file`),
departments.ndjson the same records one per line (for `--nl`). Each department refers to the one company
named by --company (`{"_ref": {"name": ...}}`), which must be in the store first: Company.json requires
Department.company. The data satisfies the model's rules: department names unique within the company,
employee numbers unique, names 1-100 characters, ages 16-100, ratings 0-5, e-mail addresses matching the
model's regular expression. N departments give 11 N objects. Standard library only; the same arguments
always give the same bytes.
"""
import argparse, datetime, json, os, random

FIRST = ["Ann", "Bruno", "Chidi", "Dana", "Emil", "Farah", "Gil", "Hana", "Ines", "Jonas",
         "Kofi", "Lena", "Mateo", "Nora", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq"]
LAST = ["Moreau", "Okafor", "Miller", "Mercier", "Nasser", "Roy", "Silva", "Tanaka", "Weber", "Kowalski",
        "Haddad", "Novak", "Larsen", "Costa", "Ibrahim", "Fischer", "Nguyen", "Rossi", "Schmidt", "Park"]
EMPLOYEES_PER_DEPARTMENT = 10
EPOCH_2001 = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)


def departments(n, company, rnd):
    number = 0
    for d in range(1, n + 1):
        employees = []
        for _ in range(EMPLOYEES_PER_DEPARTMENT):
            number += 1
            first, last = rnd.choice(FIRST), rnd.choice(LAST)
            hired = EPOCH_2001 + datetime.timedelta(seconds=rnd.randrange(0, 750_000_000))
            employees.append({
                "employeeNumber": number,
                "firstName": first,
                "lastName": last,
                "email": f"{first.lower()}.{last.lower()}.{number}@bench.example",
                "age": rnd.randint(18, 67),
                "salary": rnd.randint(30_000, 150_000),
                "rating": round(rnd.uniform(0, 5), 1),
                "hiredAt": hired.strftime("%Y-%m-%dT%H:%M:%SZ"),
                "isActive": rnd.random() < 0.9,
            })
        yield {"name": f"Dept {d}", "budget": rnd.randint(100, 10_000) * 1000,
               "company": {"_ref": {"name": company}}, "employees": employees}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--departments", type=int, default=100_000)
    ap.add_argument("--company", default="Bench Co")
    ap.add_argument("--out", default=".")
    ap.add_argument("--seed", type=int, default=42)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "departments.json"), "w") as doc, \
            open(os.path.join(a.out, "departments.ndjson"), "w") as nl:
        doc.write("[")
        for i, record in enumerate(departments(a.departments, a.company, random.Random(a.seed))):
            line = json.dumps(record, separators=(",", ":"))
            doc.write(("\n" if i == 0 else ",\n") + line)
            nl.write(line + "\n")
        doc.write("\n]\n")


if __name__ == "__main__":
    main()
