"""A client of ``a3s serve``: starts the server, sends requests, and routes its notifications.

A reader thread reads the server's stdout (one JSON message per line): responses complete the
request waiting for them; ``event``, ``run/result`` and ``run/eventsDropped`` notifications go to
the queue of their session, where the session's current :class:`Run` reads them (a session runs one run at a time).
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import queue
import shlex
import subprocess
import threading
from typing import Any, Mapping, Optional, Sequence

from .session import GONE as _GONE
from .session import Run, Session
from .types import ServeError



def _default_command() -> list[str]:
    """``A3S_SERVE_COMMAND`` (a shell-style command line), else ``a3s serve``."""
    configured = os.environ.get("A3S_SERVE_COMMAND")
    return shlex.split(configured) if configured else ["a3s", "serve"]


class Client:
    """A running ``a3s serve`` process. Use it as a context manager, or call :meth:`close`."""

    def __init__(
        self,
        command: Optional[Sequence[str]] = None,
        *,
        cwd: Optional[str] = None,
        env: Optional[Mapping[str, str]] = None,
        timeout: Optional[float] = None,
    ) -> None:
        self.timeout = timeout
        argv = list(command) if command is not None else _default_command()
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                cwd=cwd,
                env=dict(env) if env is not None else None,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except FileNotFoundError as e:
            # The program (or cwd) is not there: say which, and the ways to name the server.
            if cwd is not None and not os.path.isdir(cwd):
                missing = f"the folder {cwd!r} does not exist"
            else:
                missing = f"{argv[0]!r} is not a program on PATH"
            raise ServeError(
                None,
                f"cannot start the server ({' '.join(argv)}): {missing}; install the a3s command "
                "(npm install -g @a3s-code/cli), or pass the command to Client "
                "(Client(['node', '<checkout>/packages/cli/dist/bin.js', 'serve'])) or set A3S_SERVE_COMMAND",
            ) from e
        #: The last lines of the server's stdout that were not JSON-RPC messages (a wrapper's
        #: notice, a stray print): skipped, kept here for diagnostics.
        self.stray_lines: "collections.deque[str]" = collections.deque(maxlen=50)
        self._ids = itertools.count(1)
        self._pending: dict[int, "queue.Queue[Any]"] = {}
        self._sessions: dict[str, "queue.Queue[Any]"] = {}
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        #: Set once the server's stdout ended: every later request fails at once.
        self._gone = False
        self._max_message_bytes: Optional[int] = None
        self._reader = threading.Thread(target=self._read, name="a3s-serve-reader", daemon=True)
        self._reader.start()
        try:
            self.server_info: Mapping[str, Any] = self.request(
                "initialize", {"protocolVersion": 1, "clientInfo": {"name": "a3s-client-python"}}
            )
        except BaseException:
            # No Client is handed out: stop the process and close its pipes here.
            self.kill()
            raise
        capabilities = self.server_info.get("capabilities")
        limit = capabilities.get("maxMessageBytes") if isinstance(capabilities, dict) else None
        self._max_message_bytes = limit if isinstance(limit, int) and limit > 0 else None

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ── requests ────────────────────────────────────────────────────────────────────────────

    def request(self, method: str, params: Optional[Mapping[str, Any]] = None) -> Any:
        """Sends one request and returns its result.

        Raises :class:`ServeError` for an error response, for a request longer than the server reads
        (``capabilities.maxMessageBytes``), and when the server is gone; ``ValueError`` or
        ``TypeError`` for params that are not JSON (``NaN``, bytes).
        """
        request_id = next(self._ids)
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = dict(params)
        line = json.dumps(message, allow_nan=False)
        limit = self._max_message_bytes
        if limit is not None and len(line.encode("utf-8")) > limit:
            size = len(line.encode("utf-8"))
            raise ServeError(
                None,
                f"{method}: the request is {size} bytes; the server reads at most {limit} "
                "(a3s serve --max-message-bytes)",
            )
        answer: "queue.Queue[Any]" = queue.Queue(maxsize=1)
        with self._lock:
            if self._gone:
                raise ServeError(None, f"{method}: {self._gone_reason()}")
            self._pending[request_id] = answer
        try:
            self._send(line, method)
            reply = answer.get(timeout=self.timeout)
        except queue.Empty:
            raise ServeError(None, f"{method}: no response within {self.timeout} s") from None
        finally:
            with self._lock:
                self._pending.pop(request_id, None)
        if reply is _GONE:
            raise ServeError(None, f"{method}: {self._gone_reason()}")
        if "error" in reply:
            error = reply["error"]
            raise ServeError(error.get("code"), error.get("message", ""), error.get("data"))
        return reply.get("result")

    def open_session(
        self,
        workspace: str,
        *,
        model: Optional[str] = None,
        session_id: Optional[str] = None,
        yolo: bool = False,
        plan: bool = False,
        permissions: Optional[Mapping[str, Sequence[str]]] = None,
        trust_workspace: bool = False,
        max_tool_rounds: Optional[int] = None,
        ignore_workspace_config: bool = False,
    ) -> "Session":
        """Opens a session on ``workspace`` (``session_id`` continues that session's log).

        ``trust_workspace`` says the user trusts the folder's config file, which a file that would
        start MCP servers' commands, run hooks, let tools run unasked, redirect a provider, choose
        the model (unless ``model`` is given) or add to what the model is told needs;
        ``ignore_workspace_config`` leaves that file out entirely (not with ``trust_workspace``).
        ``max_tool_rounds`` (0..10000) caps the tool rounds of a turn: once reached, the model is
        offered no tools and answers in text.
        """
        params: dict[str, Any] = {"workspace": workspace}
        if model is not None:
            params["model"] = model
        if session_id is not None:
            params["sessionId"] = session_id
        if yolo:
            params["yolo"] = True
        if plan:
            params["plan"] = True
        if trust_workspace:
            params["trustWorkspace"] = True
        if ignore_workspace_config:
            params["ignoreWorkspaceConfig"] = True
        if max_tool_rounds is not None:
            if isinstance(max_tool_rounds, bool) or not isinstance(max_tool_rounds, int):
                raise TypeError(f"max_tool_rounds must be an int, got {type(max_tool_rounds).__name__}")
            params["maxToolRounds"] = max_tool_rounds
        if permissions is not None:
            params["permissions"] = {k: list(v) for k, v in permissions.items()}
        inbox: "queue.Queue[Any]" = queue.Queue()
        result = self.request("session/open", params)
        with self._lock:
            self._sessions[result["sessionId"]] = inbox
            if self._gone:
                inbox.put(_GONE)
        return Session(self, result, inbox)

    def list_sessions(self) -> list[Mapping[str, Any]]:
        """The sessions open in the server."""
        return list(self.request("session/list", {})["sessions"])

    def close(self) -> int:
        """Closes stdin (the server closes every session; parked runs stay parked) and waits for the exit code."""
        if self._process.stdin and not self._process.stdin.closed:
            try:
                self._process.stdin.close()
            except OSError:
                pass
        code = self._process.wait(timeout=self.timeout)
        self._reader.join(timeout=self.timeout)
        if self._process.stdout is not None:
            self._process.stdout.close()
        return code

    def kill(self) -> None:
        """Kills the server at once (no clean-up: runs stay in their logs for ``session/resume``)."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        if self._reader.is_alive() and self._reader is not threading.current_thread():
            self._reader.join()
        for stream in (self._process.stdin, self._process.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    # ── plumbing ────────────────────────────────────────────────────────────────────────────

    def _send(self, line: str, method: str) -> None:
        assert self._process.stdin is not None
        with self._write_lock:
            try:
                self._process.stdin.write(line + "\n")
                self._process.stdin.flush()
            except (BrokenPipeError, ValueError) as e:
                raise ServeError(None, f"{method}: {self._gone_reason()}") from e

    def _gone_reason(self) -> str:
        """Why the server answers no more: its exit code, or that it closed its stdout."""
        try:
            code = self._process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "the server closed its stdout (it is still running)"
        return f"the server exited (exit code {code})"

    def _read(self) -> None:
        assert self._process.stdout is not None
        try:
            for line in self._process.stdout:
                if not line.strip():
                    continue
                try:
                    message = json.loads(line)
                except ValueError:
                    message = None
                if not isinstance(message, dict):
                    # Not a message: skipped, so one stray line does not stop every later response.
                    self.stray_lines.append(line.rstrip("\n")[:1000])
                    continue
                self._route(message)
        finally:
            with self._lock:
                self._gone = True
                for waiting in self._pending.values():
                    waiting.put(_GONE)
                for inbox in self._sessions.values():
                    inbox.put(_GONE)

    def _route(self, message: Mapping[str, Any]) -> None:
        method = message.get("method")
        if method is None:
            request_id = message.get("id")
            with self._lock:
                waiting = self._pending.get(request_id) if isinstance(request_id, int) else None
            if waiting is not None:
                waiting.put(message)
            return
        params = message.get("params")
        if not isinstance(params, dict):
            return
        # An event names its session in its metadata; run/result and run/eventsDropped in sessionId.
        metadata = params.get("metadata")
        if method == "event":
            session_id = metadata.get("session_id") if isinstance(metadata, dict) else None
        else:
            session_id = params.get("sessionId")
        with self._lock:
            inbox = self._sessions.get(session_id) if isinstance(session_id, str) else None
        if inbox is not None:
            inbox.put(message)
