"""The writing tools of `cdstore mcp --allow-writes`: dry runs by default, one transaction each, validated against
the model, delete rules applied, results saying what changed."""

from conftest import cli, error_text, file_bytes, result_json, run, session


def test_writes_are_dry_runs_unless_told_otherwise(writable_company):
    store = str(writable_company)

    async def body():
        async with session("--store", store, "--allow-writes") as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert {"insert", "update", "delete"} <= names
            before = file_bytes(writable_company)
            departments = int(cli("count", "Department", "--store", store))

            dry = result_json(await client.call_tool("insert", {
                "entity": "Department", "values": {"name": "Ops", "company": {"_ref": {"name": "Acme"}}}}))
            assert dry["dry_run"] is True and dry["would_insert"] == 1
            assert int(cli("count", "Department", "--store", store)) == departments

            done = result_json(await client.call_tool("insert", {
                "entity": "Department", "values": {"name": "Ops", "company": {"_ref": {"name": "Acme"}}}, "dry_run": False}))
            assert done["inserted"] == 1 and done["objects"][0].startswith("x-coredata://")
            assert int(cli("count", "Department", "--store", store)) == departments + 1
            assert file_bytes(writable_company) != before
    run(body())


def test_insert_is_validated_against_the_model(writable_company):
    store = str(writable_company)

    async def body():
        async with session("--store", store, "--allow-writes") as client:
            employees = int(cli("count", "Employee", "--store", store))
            text = error_text(await client.call_tool("insert", {
                "entity": "Employee", "values": {"firstName": "Gil", "lastName": "Roy", "employeeNumber": 1007, "age": 12},
                "dry_run": False}))
            assert "age" in text and "minimum" in text
            text = error_text(await client.call_tool("insert", {"entity": "Employee", "values": [{"firstName": "A"}, 3]}))
            assert "values" in text
            assert int(cli("count", "Employee", "--store", store)) == employees
    run(body())


def test_update_and_delete_report_what_changed(writable_company):
    store = str(writable_company)

    async def body():
        async with session("--store", store, "--allow-writes") as client:
            where = "department.name == 'Sales'"
            salaries = cli("project", "Employee", "--store", store, "--properties", "salary", "--where", where, "--sort", "salary")
            matching = int(cli("count", "Employee", "--store", store, "--where", where))
            assert matching >= 2
            dry = result_json(await client.call_tool("update", {
                "entity": "Employee", "where": where, "values": {"salary": {"expression": "salary * 1.05"}}}))
            assert dry["dry_run"] is True and dry["would_update"] == matching and len(dry["objects"]) == matching
            assert cli("project", "Employee", "--store", store, "--properties", "salary", "--where", where, "--sort", "salary") == salaries

            done = result_json(await client.call_tool("update", {
                "entity": "Employee", "where": where, "values": {"salary": {"expression": "salary * 1.05"}}, "dry_run": False}))
            assert done["updated"] == matching
            assert cli("project", "Employee", "--store", store, "--properties", "salary", "--where", where, "--sort", "salary") != salaries

            text = error_text(await client.call_tool("delete", {"entity": "Department", "where": "name == 'Sales'", "dry_run": False}))
            assert "Deny" in text
            assert int(cli("count", "Department", "--store", store, "--where", "name == 'Sales'")) == 1

            badge = result_json(await client.call_tool("fetch", {"entity": "Badge", "limit": 1}))["objects"]
            if badge:
                gone = result_json(await client.call_tool("delete", {"entity": "Badge", "id": badge[0]["_id"], "dry_run": False}))
                assert gone["deleted"] == 1 and gone["total"] >= 1
            bad = error_text(await client.call_tool("update", {"entity": "Employee", "where": "age >", "values": {"age": 40}}))
            assert bad.startswith("where:")
    run(body())
