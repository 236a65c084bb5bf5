"""End-to-end tests of the Python client against a real ``a3s serve`` with scripted models.

The server command comes from ``A3S_SERVE_COMMAND`` (the Node suite sets it to the built
``a3s``); each test makes its own git repository and model script.
"""

from __future__ import annotations

import gc
import json
import os
import shlex
import subprocess
import sys
import warnings
import tempfile
import unittest
from pathlib import Path

from a3s_client import Client, ConfirmationRequest, Question, ServeError


def repo() -> str:
    folder = tempfile.mkdtemp(prefix="a3s-py-")
    Path(folder, "README.md").write_text("hello\n")
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    return folder


def script(turns: list[dict[str, object]]) -> str:
    path = Path(tempfile.mkdtemp(prefix="a3s-py-script-"), "model.json")
    path.write_text(json.dumps({"turns": turns}))
    return f"scripted:{path}"


ECHO: list[dict[str, object]] = [
    {"text": "Running it.", "tool_calls": [{"id": "b1", "name": "bash", "args": {"command": "echo from-python"}}]},
    {"question": {"question": "Which colour?", "options": [{"label": "red"}, {"label": "blue"}]}},
    {"text": "Done: blue."},
]


@unittest.skipUnless(os.environ.get("A3S_SERVE_COMMAND"), "A3S_SERVE_COMMAND is not set (run through the Node suite)")
class ClientTest(unittest.TestCase):
    def test_send_iterate_answer_close(self) -> None:
        asked: list[ConfirmationRequest] = []
        questions: list[Question] = []

        def confirm(request: ConfirmationRequest) -> bool:
            asked.append(request)
            return True

        def answer(question: Question) -> str:
            questions.append(question)
            return "blue"

        with Client(timeout=30) as client:
            self.assertEqual(client.server_info["protocolVersion"], 1)
            session = client.open_session(repo(), model=script(ECHO))
            run = session.send("run echo", on_confirm=confirm, on_question=answer)
            events = list(run)
            result = run.result
        self.assertEqual(result.status, "completed")
        self.assertEqual(result.text, "Done: blue.")
        self.assertEqual([(r.tool_id, r.tool_name, dict(r.args)) for r in asked], [("b1", "bash", {"command": "echo from-python"})])
        self.assertEqual([(q.question, q.options) for q in questions], [("Which colour?", ["red", "blue"])])
        types = [e.type for e in events if not e.type.endswith("_delta")]
        self.assertEqual(types[0], "agent_start")
        self.assertIn("confirmation_required", types)
        self.assertIn("user_question", types)
        self.assertEqual(types[-1], "agent_end")
        self.assertEqual([e.sequence for e in events], list(range(1, len(events) + 1)))
        tool_end = next(e for e in events if e.type == "tool_end")
        self.assertEqual(tool_end.payload["output"], "from-python\n")
        self.assertEqual({e.run_id for e in events}, {run.id})

    def test_parked_without_handler_then_answered(self) -> None:
        with Client(timeout=30) as client:
            session = client.open_session(repo(), model=script(ECHO[:1]))
            run = session.send("run echo")
            self.assertEqual(run.result.status, "parked")
            self.assertEqual((run.result.parked or {}).get("toolId"), "b1")
            parked_events = list(run)  # already read: the iteration has ended at the park
            self.assertEqual(parked_events, [])
            run.confirm(False, "not now")
            resumed = [e.type for e in run]
            self.assertEqual(run.result.status, "completed")
            self.assertEqual(resumed[0], "agent_start")
            self.assertNotIn("tool_start", resumed)  # the refused call never ran
            with self.assertRaises(ServeError):
                run.confirm(True)

    def test_interrupt_two_sessions_and_errors(self) -> None:
        with Client(timeout=30) as client:
            slow = client.open_session(repo(), model=script([{"delay_ms": 15000, "text": "never"}]))
            quick = client.open_session(repo(), model=script([{"text": "Quick answer."}]))
            slow_run = slow.send("slow")
            quick_run = quick.send("quick")
            self.assertEqual(quick_run.result.text, "Quick answer.")
            self.assertTrue(slow_run.interrupt("enough"))
            self.assertEqual(slow_run.result.status, "cancelled")
            with self.assertRaises(ServeError) as bad:
                client.request("session/open", {"workspace": 7})
            self.assertEqual(bad.exception.code, -32602)
            self.assertEqual(bad.exception.field, "params.workspace")
            with self.assertRaises(ServeError) as unknown:
                client.request("session/nope", {})
            self.assertEqual(unknown.exception.code, -32601)
            self.assertEqual([s["sessionId"] for s in client.list_sessions()], [slow.id, quick.id])
            slow.close()
            self.assertEqual([s["sessionId"] for s in client.list_sessions()], [quick.id])
        self.assertEqual(client.close(), 0)

    def test_kill_restart_resume(self) -> None:
        folder = repo()
        first = Client(timeout=30)
        session = first.open_session(folder, model=script(ECHO[:1]), session_id="py-restart")
        run = session.send("run echo")
        self.assertEqual(run.result.status, "parked")
        first.kill()
        with Client(timeout=30) as second:
            again = second.open_session(folder, model=script([{"text": "Back again."}]), session_id="py-restart")
            self.assertEqual(again.state["phase"], "confirm")
            resumed = again.resume(on_confirm=lambda request: request.tool_id == "b1")
            self.assertEqual(resumed.id, run.id)
            self.assertEqual(resumed.result.status, "completed")
            self.assertEqual(resumed.result.text, "Back again.")

    def test_a_parked_run_whose_capabilities_changed_resumes_with_rebind(self) -> None:
        folder = repo()
        with Client(timeout=30) as first:
            parked = first.open_session(folder, model=script(ECHO[:1]), session_id="py-drift").send("run echo")
            self.assertEqual(parked.result.status, "parked")
        with Client(timeout=30) as second:
            again = second.open_session(
                folder,
                model=script([{"text": "Rebound."}]),
                session_id="py-drift",
                permissions={"deny": ["Bash(rm:*)"]},
                ignore_workspace_config=True,
            )
            with self.assertRaises(ServeError) as drifted:
                again.resume()
            self.assertEqual(drifted.exception.runtime_code, "CAPABILITY_DRIFT")
            self.assertIn('"rebind": true', str(drifted.exception))
            resumed = again.resume(on_confirm=lambda request: request.tool_id == "b1", rebind=True)
            self.assertEqual(resumed.id, parked.id)
            self.assertEqual((resumed.result.status, resumed.result.text), ("completed", "Rebound."))

    def test_max_tool_rounds_caps_the_tool_rounds_of_a_turn(self) -> None:
        two_rounds: list[dict[str, object]] = [
            {"tool_calls": [{"id": "b1", "name": "bash", "args": {"command": "echo one"}}]},
            {"tool_calls": [{"id": "b2", "name": "bash", "args": {"command": "echo two"}}]},
            {"text": "Answered in text."},
        ]
        with Client(timeout=30) as client:
            capped = client.open_session(repo(), model=script(two_rounds), yolo=True, max_tool_rounds=1)
            run = capped.send("run both")
            outputs = [e.payload["output"] for e in run if e.type == "tool_end"]
            self.assertEqual(outputs, ["one\n"])  # the second round was offered no tools
            self.assertEqual((run.result.status, run.result.text, run.result.tool_calls), ("completed", "Answered in text.", 1))
            free = client.open_session(repo(), model=script(two_rounds), yolo=True)
            run = free.send("run both")
            self.assertEqual([e.payload["output"] for e in run if e.type == "tool_end"], ["one\n", "two\n"])
            with self.assertRaises(ServeError) as bad:
                client.open_session(repo(), model=script([]), max_tool_rounds=-1)
            self.assertEqual(bad.exception.field, "params.maxToolRounds")
            with self.assertRaises(TypeError):
                client.open_session(repo(), model=script([]), max_tool_rounds="3")  # type: ignore[arg-type]


@unittest.skipUnless(os.environ.get("A3S_SERVE_COMMAND"), "A3S_SERVE_COMMAND is not set (run through the Node suite)")
class StrayOutputTest(unittest.TestCase):
    def test_lines_that_are_not_messages_are_passed_over(self) -> None:
        # A wrapper (npx, a shell profile) that prints to stdout before the server starts, lines
        # that are JSON but no message, and bytes that are not UTF-8: the client still gets its
        # responses and events instead of a dead reader thread and a request that never returns.
        noise = "printf 'npm notice: update available\\n[1,2]\\n\\377\\376 not utf-8\\n'"
        command = ["sh", "-c", f'{noise}; exec "$@"', "sh", *shlex.split(os.environ["A3S_SERVE_COMMAND"])]
        with Client(command, timeout=30) as client:
            session = client.open_session(repo(), model=script([{"text": "Hello."}]))
            run = session.send("hi")
            list(run)
            self.assertEqual(run.result.status, "completed")
            self.assertEqual(run.result.text, "Hello.")
            self.assertEqual(list(client.stray_lines)[:2], ["npm notice: update available", "[1,2]"])
            self.assertEqual(len(client.stray_lines), 3)


# A server that answers `initialize`, then closes its stdout and goes on reading stdin.
MUTE_SERVER = """
import json, os, sys
request = json.loads(sys.stdin.readline())
print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": {"protocolVersion": 1}}), flush=True)
os.close(1)
for _ in sys.stdin:
    pass
"""


@unittest.skipUnless(os.environ.get("A3S_SERVE_COMMAND"), "A3S_SERVE_COMMAND is not set (run through the Node suite)")
class ServerGoneTest(unittest.TestCase):
    def test_a_server_that_is_gone_fails_requests_at_once_naming_why(self) -> None:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with self.assertRaises(ServeError) as early:
                Client(["sh", "-c", "exit 3"], timeout=20)
            self.assertIn("initialize: the server exited (exit code 3)", str(early.exception))
            del early
            gc.collect()
        # The process of a Client that was never handed out is reaped and its pipes closed.
        self.assertEqual([str(w.message) for w in caught if issubclass(w.category, ResourceWarning)], [])

        # A command that is not there: named, with the ways to name the server, not a bare errno.
        with self.assertRaises(ServeError) as absent:
            Client(["a3s-no-such-command", "serve"], timeout=20)
        self.assertIn(
            "cannot start the server (a3s-no-such-command serve): 'a3s-no-such-command' is not a program on PATH",
            str(absent.exception),
        )
        self.assertIn("npm install -g @a3s-code/cli", str(absent.exception))
        self.assertIn("A3S_SERVE_COMMAND", str(absent.exception))

        mute = Client([sys.executable, "-c", MUTE_SERVER], timeout=20)
        try:
            mute._reader.join(timeout=20)  # the reader has seen the end of stdout
            with self.assertRaises(ServeError) as closed:
                mute.request("session/list", {})
            self.assertIn("session/list: the server closed its stdout", str(closed.exception))
        finally:
            mute.kill()

        client = Client(timeout=20)
        session = client.open_session(repo(), model=script([{"delay_ms": 15000, "text": "never"}]))
        run = session.send("slow")
        client._process.kill()
        try:
            with self.assertRaises(ServeError) as during:
                list(run)
            self.assertIn("the server exited (exit code -9) during the run", str(during.exception))
            with self.assertRaises(ServeError) as after:
                session.tools()
            self.assertIn("session/tools: the server exited (exit code -9)", str(after.exception))
        finally:
            client.kill()

    def test_a_request_the_server_cannot_read_is_refused_before_it_is_sent(self) -> None:
        command = [*shlex.split(os.environ["A3S_SERVE_COMMAND"]), "--max-message-bytes", "4096"]
        with Client(command, timeout=20) as client:
            self.assertEqual(client.server_info["capabilities"]["maxMessageBytes"], 4096)
            with self.assertRaises(ServeError) as big:
                client.open_session(repo(), model="x" * 5000)
            self.assertRegex(str(big.exception), r"session/open: the request is \d+ bytes; the server reads at most 4096")
            with self.assertRaises(ValueError):
                client.request("session/list", {"x": float("nan")})
            self.assertEqual(client.list_sessions(), [])
        self.assertEqual(client.close(), 0)


if __name__ == "__main__":
    unittest.main()
