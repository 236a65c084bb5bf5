"""A session open in ``a3s serve`` and the runs it makes: :class:`Session` sends prompts and
answers; :class:`Run` iterates one run's events from the session's queue, answering confirmations
and questions through the handlers it was given."""

from __future__ import annotations

import queue
from typing import Any, Iterator, Mapping, Optional

from .types import (
    ConfirmationRequest,
    ConfirmHandler,
    Event,
    EventsDropped,
    Question,
    QuestionHandler,
    RunResult,
    ServeError,
    ServerLink,
)

GONE = object()  # put on every session queue when the server's stdout ends


class Session:
    """A session open in the server. One run at a time; ``send`` returns a :class:`Run` to iterate."""

    def __init__(self, client: ServerLink, opened: Mapping[str, Any], inbox: "queue.Queue[Any]") -> None:
        self.client = client
        self.id: str = opened["sessionId"]
        self.workspace: str = opened["workspace"]
        self.log_path: Optional[str] = opened.get("logPath")
        # {line, reason, bytesCut} when opening cut off a last line a crash left incomplete.
        self.log_repair: Optional[Mapping[str, Any]] = opened.get("logRepair")
        self.state: Mapping[str, Any] = opened["state"]
        self._inbox = inbox

    def send(
        self,
        prompt: str,
        *,
        on_confirm: Optional[ConfirmHandler] = None,
        on_question: Optional[QuestionHandler] = None,
    ) -> "Run":
        """Starts a run; iterate the returned :class:`Run` for its events."""
        started = self.client.request("session/send", {"sessionId": self.id, "prompt": prompt})
        return Run(self, started["runId"], on_confirm, on_question)

    def resume(
        self,
        *,
        on_confirm: Optional[ConfirmHandler] = None,
        on_question: Optional[QuestionHandler] = None,
        rebind: bool = False,
    ) -> "Run":
        """Continues the log: a parked or cut-off run, or a new run after an interrupted one.

        ``rebind`` continues a run whose capabilities changed since it started under the current
        ones (otherwise that is a ``CAPABILITY_DRIFT`` error).
        """
        params: dict[str, Any] = {"sessionId": self.id}
        if rebind:
            params["rebind"] = True
        started = self.client.request("session/resume", params)
        return Run(self, started["runId"], on_confirm, on_question)

    def answer_confirmation(
        self, tool_id: str, approved: bool, reason: Optional[str] = None, *, rebind: bool = False
    ) -> Optional[str]:
        """Answers a parked confirmation; the parked run resumes (its id is returned)."""
        params: dict[str, Any] = {"sessionId": self.id, "toolId": tool_id, "approved": approved}
        if reason is not None:
            params["reason"] = reason
        if rebind:
            params["rebind"] = True
        run_id = self.client.request("confirmation/answer", params)["runId"]
        return str(run_id) if run_id is not None else None

    def answer_question(self, question_id: str, answer: Optional[str]) -> Optional[str]:
        """Answers a parked question (``None`` skips it); the parked run resumes."""
        params: dict[str, Any] = {"sessionId": self.id, "questionId": question_id}
        if answer is None:
            params["skipped"] = True
        else:
            params["answer"] = answer
        run_id = self.client.request("question/answer", params)["runId"]
        return str(run_id) if run_id is not None else None

    def steer(self, text: str, run_id: Optional[str] = None) -> Mapping[str, Any]:
        """Queues a message for the active run's next model call; returns the receipt."""
        params: dict[str, Any] = {"sessionId": self.id, "text": text}
        if run_id is not None:
            params["runId"] = run_id
        receipt: Mapping[str, Any] = self.client.request("session/steer", params)
        return receipt

    def tools(self) -> list[Mapping[str, Any]]:
        """The session's tool surface (name, description, tier, capabilities)."""
        return list(self.client.request("session/tools", {"sessionId": self.id})["tools"])

    def close(self) -> None:
        """Closes the session in the server (an active run is interrupted)."""
        self.client.request("session/close", {"sessionId": self.id})

    def _next(self) -> Any:
        try:
            return self._inbox.get(timeout=self.client.timeout)
        except queue.Empty:
            raise ServeError(None, f"no event within {self.client.timeout} s") from None


class Run:
    """One run: iterate it for its events; :attr:`result` says how it settled.

    When the run parks, ``on_confirm`` / ``on_question`` answer it and the iteration goes on with
    the resumed run; without the handler the iteration ends with ``result.status == "parked"``.
    """

    def __init__(
        self,
        session: Session,
        run_id: str,
        on_confirm: Optional[ConfirmHandler],
        on_question: Optional[QuestionHandler],
    ) -> None:
        self.session = session
        self.id = run_id
        self._on_confirm = on_confirm
        self._on_question = on_question
        self._result: Optional[RunResult] = None
        self._asked: dict[str, Mapping[str, Any]] = {}
        #: Each ``run/eventsDropped`` notice of this run, in order: events the server did not send
        #: while the client read too slowly (the iteration skips them; the log has them all).
        self.dropped: list[EventsDropped] = []

    def __iter__(self) -> Iterator[Event]:
        while self._result is None:
            message = self.session._next()
            if message is GONE:
                raise ServeError(None, f"run {self.id}: {self.session.client._gone_reason()} during the run")
            params = message["params"]
            if message["method"] == "event":
                event = Event.from_json(params)
                if event.run_id != self.id:
                    continue
                if event.type in ("confirmation_required", "user_question"):
                    key = event.payload.get("tool_id") or event.payload.get("question_id")
                    self._asked[str(key)] = event.payload
                yield event
            elif message["method"] == "run/eventsDropped" and params.get("runId") == self.id:
                self.dropped.append(EventsDropped.from_json(params))
            elif message["method"] == "run/result" and params.get("runId") == self.id:
                settled = RunResult.from_json(params)
                if settled.status != "parked" or not self._answer(settled.parked or {}):
                    self._result = settled

    @property
    def events_dropped(self) -> int:
        """How many of this run's events the server dropped so far (see :attr:`dropped`)."""
        return sum(d.dropped for d in self.dropped)

    @property
    def result(self) -> RunResult:
        """The run's result; waits for the run to settle (reading the events that are left)."""
        for _ in self:
            pass
        assert self._result is not None
        return self._result

    def interrupt(self, reason: Optional[str] = None) -> bool:
        """Interrupts this run (and no other). Returns whether it was running."""
        params: dict[str, Any] = {"sessionId": self.session.id, "runId": self.id}
        if reason is not None:
            params["reason"] = reason
        return bool(self.session.client.request("session/interrupt", params)["interrupted"])

    def confirm(self, approved: bool, reason: Optional[str] = None) -> None:
        """Answers this run's parked confirmation; iterating the run again follows the resumed run."""
        parked = self._parked("confirm")
        self.session.answer_confirmation(str(parked["toolId"]), approved, reason)
        self._result = None

    def answer(self, text: Optional[str]) -> None:
        """Answers this run's parked question (``None`` skips it); iterating the run again follows the resumed run."""
        parked = self._parked("question")
        self.session.answer_question(str(parked["questionId"]), text)
        self._result = None

    def _parked(self, kind: str) -> Mapping[str, Any]:
        parked = self._result.parked if self._result is not None else None
        if not parked or parked.get("kind") != kind:
            raise ServeError(None, f"run {self.id} is not parked at a {kind}")
        return parked

    def _answer(self, parked: Mapping[str, Any]) -> bool:
        """Answers a park with the handlers; False when there is no handler for it."""
        if parked.get("kind") == "confirm" and self._on_confirm is not None:
            tool_id = str(parked["toolId"])
            asked = self._asked.get(tool_id, {})
            request = ConfirmationRequest(
                tool_id=tool_id,
                tool_name=str(parked.get("toolName", "")),
                args=parked.get("args", {}),
                rule=str(asked.get("rule", "default")),
            )
            verdict = self._on_confirm(request)
            problem = _verdict_problem(verdict)
            if problem is not None:
                # Fail closed: a verdict that is not a bool is never read as an approval.
                self.session.answer_confirmation(tool_id, False, f"refused: on_confirm {problem}")
                raise TypeError(
                    f"on_confirm {problem} for the call {tool_id} ({request.tool_name}); the call was refused. "
                    "Return True, False, or a tuple (bool, reason)"
                )
            approved, reason = verdict if isinstance(verdict, tuple) else (verdict, None)
            self.session.answer_confirmation(tool_id, approved, reason)
            return True
        if parked.get("kind") == "question" and self._on_question is not None:
            question_id = str(parked["questionId"])
            asked = self._asked.get(question_id, {})
            question = Question(
                question_id=question_id,
                question=str(parked.get("question", "")),
                options=[str(o) for o in asked.get("options", [])],
                context=asked.get("context"),
            )
            self.session.answer_question(question_id, self._on_question(question))
            return True
        return False


def _verdict_problem(verdict: object) -> Optional[str]:
    """What is wrong with an ``on_confirm`` verdict, or ``None`` for ``bool`` or ``(bool, str | None)``."""
    if isinstance(verdict, bool):
        return None
    if isinstance(verdict, tuple):
        if len(verdict) == 2 and isinstance(verdict[0], bool) and (verdict[1] is None or isinstance(verdict[1], str)):
            return None
        shown = ", ".join(type(v).__name__ for v in verdict[:3])
        return f"returned a tuple ({shown}{', ...' if len(verdict) > 3 else ''}), not (bool, str | None)"
    return f"returned {type(verdict).__name__} {_clip(repr(verdict))}, not a bool"


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else f"{text[:limit]}..."
