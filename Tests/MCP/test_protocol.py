"""The protocol itself, below the SDK: malformed and hostile messages (a property test, Hypothesis) each get an
error response and never stop the server, requests are answered in order, and the store keeps every byte."""

import json
import os
import select
import subprocess
import time

from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import CDSTORE, file_bytes

INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


class RawServer:
    """`cdstore mcp` on pipes: one line out, one line back, each within a few seconds."""

    def __init__(self, store, *extra):
        self.process = subprocess.Popen([CDSTORE, "mcp", "--store", str(store), *extra], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buffer = b""

    def send(self, line):
        self.process.stdin.write(line if isinstance(line, bytes) else line.encode())
        self.process.stdin.write(b"\n")
        self.process.stdin.flush()

    def receive(self, timeout=10):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            assert remaining > 0, "no response in time"
            ready, _, _ = select.select([self.process.stdout], [], [], remaining)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 65536)
                assert chunk, f"the server closed its output (exit status {self.process.poll()})"
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def call(self, message):
        self.send(json.dumps(message))
        return self.receive()

    def close(self):
        self.process.stdin.close()
        assert self.process.wait(timeout=10) == 0


def test_protocol_errors_have_their_codes(company_store):
    server = RawServer(company_store)
    assert server.call(INITIALIZE)["result"]["protocolVersion"] == "2025-06-18"
    server.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
    cases = [
        (b"{not json", -32700, None),
        (b"[]", -32600, None),
        (b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]', -32600, None),
        (b"42", -32600, None),
        (b'{"jsonrpc":"1.0","id":3,"method":"ping"}', -32600, 3),
        (b'{"jsonrpc":"2.0","id":4}', -32600, 4),
        (b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', -32600, None),
        (b'{"jsonrpc":"2.0","id":5,"method":7}', -32600, 5),
        (b'{"jsonrpc":"2.0","id":6,"method":"nope/nothing"}', -32601, 6),
        (b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"x"}', -32602, 7),
        (b'{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"drop_table"}}', -32602, 8),
        (b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"delete","arguments":{}}}', -32602, 9),
        (b'{"jsonrpc":"2.0","id":10,"method":"resources/read","params":{"uri":"file:///etc/passwd"}}', -32002, 10),
        (b'{"jsonrpc":"2.0","id":11,"method":"resources/read","params":{"uri":"cdstore://entity/../../etc"}}', -32002, 11),
        (b'\xff\xfe\x00', -32700, None),
    ]
    for line, code, ident in cases:
        server.send(line)
        response = server.receive()
        assert response["error"]["code"] == code, (line, response)
        assert response["id"] == ident, (line, response)
    assert server.call({"jsonrpc": "2.0", "id": "last", "method": "ping"}) == {"jsonrpc": "2.0", "id": "last", "result": {}}
    server.close()


def test_answers_in_order_and_after_the_input_ends(company_store):
    lines = [json.dumps(INITIALIZE)] + [json.dumps({"jsonrpc": "2.0", "id": i, "method": "ping"}) for i in range(1, 20)]
    lines.append(json.dumps({"jsonrpc": "2.0", "id": 20, "method": "tools/call",
                             "params": {"name": "count", "arguments": {"entity": "Employee"}}}))
    done = subprocess.run([CDSTORE, "mcp", "--store", str(company_store)], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=30)
    responses = [json.loads(line) for line in done.stdout.splitlines()]
    assert [response["id"] for response in responses] == list(range(21))
    assert responses[-1]["result"]["structuredContent"]["count"] > 0


def test_oversized_message_is_refused_and_the_server_goes_on(company_store):
    server = RawServer(company_store)
    server.send(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + b"x" * (5 * 1024 * 1024) + b'"}}')
    assert server.receive()["error"]["code"] == -32600
    assert server.call({"jsonrpc": "2.0", "id": 2, "method": "ping"})["result"] == {}
    server.close()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70) | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12)
tool_names = st.sampled_from(["describe_store", "describe_model", "fetch", "count", "project", "get_object",
                              "history", "insert", "update", "delete", "", "../x", "fetch\u0000"])
argument_names = st.sampled_from(["entity", "where", "sort", "limit", "cursor", "properties", "group_by", "having",
                                  "id", "since", "values", "dry_run", "x"])
entities = st.sampled_from(["Employee", "Department", "Company", "Manager", "Badge", "ZEMPLOYEE", "Z_PRIMARYKEY", ""])
arguments = st.dictionaries(argument_names, json_values | entities, max_size=5) | json_values
hostile_requests = st.one_of(
    st.builds(lambda name, args, entity: {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                          "params": {"name": name, "arguments": ({**args, "entity": entity} if isinstance(args, dict) else args)}},
              tool_names, arguments, entities),
    st.builds(lambda method, params: {"jsonrpc": "2.0", "id": 1, "method": method, "params": params},
              st.sampled_from(["tools/call", "resources/read", "initialize", "tools/list", "x", ""]), json_values),
)
garbage_lines = st.binary(min_size=1, max_size=200).filter(lambda b: b"\n" not in b and b.strip() != b"")


def _is_notification(line):
    try:
        value = json.loads(line)
    except Exception:
        return False
    return isinstance(value, dict) and value.get("jsonrpc") == "2.0" and "id" not in value and isinstance(value.get("method"), str)


def test_hostile_requests_each_get_a_response(company_store):
    before = file_bytes(company_store)
    server = RawServer(company_store)
    server.call(INITIALIZE)

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.one_of(hostile_requests.map(lambda m: json.dumps(m).encode()), garbage_lines))
    def each(line):
        if _is_notification(line):
            return
        server.send(line)
        response = server.receive()
        assert response["jsonrpc"] == "2.0"
        assert ("error" in response) != ("result" in response), response
        if "error" in response:
            assert isinstance(response["error"]["code"], int) and response["error"]["message"]

    each()
    assert server.call({"jsonrpc": "2.0", "id": "alive", "method": "ping"})["result"] == {}
    server.close()
    assert file_bytes(company_store) == before
