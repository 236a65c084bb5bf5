"""The client fails closed on an ``on_confirm`` verdict that is not a bool (the call is refused and
a ``TypeError`` says why), and hands a run's ``run/eventsDropped`` notices to that run.

The verdict tests run against a real ``a3s serve`` (``A3S_SERVE_COMMAND``, set by the Node suite);
the dropped-events test against a small scripted server that sends the notice.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from typing import cast

from a3s_client import Client, ConfirmHandler, EventsDropped


def repo() -> str:
    folder = tempfile.mkdtemp(prefix="a3s-py-")
    Path(folder, "README.md").write_text("hello\n")
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    return folder


def script(turns: list[dict[str, object]]) -> str:
    path = Path(tempfile.mkdtemp(prefix="a3s-py-script-"), "model.json")
    path.write_text(json.dumps({"turns": turns}))
    return f"scripted:{path}"


def returning(verdict: object) -> ConfirmHandler:
    """An ``on_confirm`` handler that answers ``verdict`` whatever it is (typed or not)."""
    return cast(ConfirmHandler, lambda _request: verdict)


def marker() -> Path:
    """A file outside the workspace (a change inside it would call for verification)."""
    return Path(tempfile.mkdtemp(prefix="a3s-py-marker-"), "ran.txt")


def writes(path: Path) -> list[dict[str, object]]:
    call = {"id": "c1", "name": "bash", "args": {"command": f"echo yes > {path}"}}
    return [{"text": "Writing.", "tool_calls": [call]}, {"text": "Done."}]


@unittest.skipUnless(os.environ.get("A3S_SERVE_COMMAND"), "A3S_SERVE_COMMAND is not set (run through the Node suite)")
class VerdictTest(unittest.TestCase):
    def test_a_verdict_that_is_not_a_bool_refuses_the_call_and_raises(self) -> None:
        verdicts: list[object] = [[False, "no"], "deny", {"approved": False}, 1, (True, 5), (True,)]
        with Client(timeout=30) as client:
            for verdict in verdicts:
                ran = marker()
                session = client.open_session(repo(), model=script(writes(ran)))
                run = session.send("write it", on_confirm=returning(verdict))
                with self.assertRaises(TypeError) as raised:
                    list(run)
                self.assertIn("the call was refused", str(raised.exception))
                self.assertIn("c1 (bash)", str(raised.exception))
                # The refusal was sent: the run goes on without the call, which never ran.
                self.assertEqual(run.result.status, "completed", verdict)
                self.assertFalse(ran.exists(), verdict)

    def test_bool_and_bool_reason_tuples_are_verdicts(self) -> None:
        with Client(timeout=30) as client:
            cases: list[tuple[object, bool]] = [(True, True), ((True, None), True), (False, False), ((False, "why"), False)]
            for verdict, runs in cases:
                ran = marker()
                run = client.open_session(repo(), model=script(writes(ran))).send(
                    "write it", on_confirm=returning(verdict)
                )
                self.assertEqual(run.result.status, "completed", verdict)
                self.assertEqual(ran.exists(), runs, verdict)


# Answers initialize, session/open and session/send, then sends a run's events with a
# run/eventsDropped notice between them (as a3s serve does for a client that reads too slowly).
DROPPING_SERVER = """
import json, sys
def send(message):
    print(json.dumps(message), flush=True)
def event(seq):
    meta = {"run_id": "r1", "session_id": "s1", "sequence": seq, "timestamp_ms": 0}
    return {"jsonrpc": "2.0", "method": "event", "params": {"version": 1, "type": "text_delta", "payload": {}, "metadata": meta}}
for line in sys.stdin:
    request = json.loads(line)
    method = request["method"]
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": request["id"], "result": {"protocolVersion": 1, "capabilities": {}}})
    elif method == "session/open":
        state = {"phase": "idle", "runId": None, "runStatus": None, "activeRunId": None}
        send({"jsonrpc": "2.0", "id": request["id"], "result": {"sessionId": "s1", "workspace": "/w", "logPath": None, "model": None, "state": state, "logRepair": None}})
    elif method == "session/send":
        send({"jsonrpc": "2.0", "id": request["id"], "result": {"runId": "r1"}})
        send(event(1))
        send({"jsonrpc": "2.0", "method": "run/eventsDropped", "params": {"sessionId": "s1", "runId": "r1", "dropped": 5, "firstSequence": 2, "lastSequence": 6}})
        send(event(7))
        send({"jsonrpc": "2.0", "method": "run/eventsDropped", "params": {"sessionId": "s1", "runId": "r1", "dropped": 2, "firstSequence": 8, "lastSequence": 9}})
        send({"jsonrpc": "2.0", "method": "run/result", "params": {"sessionId": "s1", "runId": "r1", "status": "completed", "text": "ok", "usage": None, "toolCalls": 0, "completion": None}})
"""


class DroppedEventsTest(unittest.TestCase):
    def test_run_events_dropped_reaches_the_run(self) -> None:
        with Client([sys.executable, "-c", DROPPING_SERVER], timeout=20) as client:
            run = client.open_session("/w").send("go")
            self.assertEqual([e.sequence for e in run], [1, 7])
            self.assertEqual(run.result.text, "ok")
            self.assertEqual(
                run.dropped,
                [EventsDropped("r1", 5, 2, 6), EventsDropped("r1", 2, 8, 9)],
            )
            self.assertEqual(run.events_dropped, 7)


if __name__ == "__main__":
    unittest.main()
