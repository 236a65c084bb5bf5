"""The values the client hands out: events, run results, parks, and the server's errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Protocol, Union


class ServeError(Exception):
    """A JSON-RPC error from ``a3s serve`` (or the server went away: ``code`` is then ``None``).

    ``field`` names the bad request field for invalid params (``params.workspace``); ``runtime_code``
    is the runtime's typed error code (``SESSION_BUSY``, ``NOTHING_TO_RESUME``, ...).
    """

    def __init__(self, code: Optional[int], message: str, data: Optional[Mapping[str, Any]] = None) -> None:
        super().__init__(message if code is None else f"{code}: {message}")
        self.code = code
        self.message = message
        self.data: Mapping[str, Any] = data or {}

    @property
    def field(self) -> Optional[str]:
        value = self.data.get("field")
        return value if isinstance(value, str) else None

    @property
    def runtime_code(self) -> Optional[str]:
        value = self.data.get("code")
        return value if isinstance(value, str) else None


@dataclass(frozen=True)
class Event:
    """One EventEnvelopeV1 (``version``, ``type``, ``payload``, ``metadata``), as ``a3s run --json`` prints it."""

    type: str
    payload: Mapping[str, Any]
    metadata: Mapping[str, Any]
    raw: Mapping[str, Any] = field(repr=False)

    @staticmethod
    def from_json(value: Mapping[str, Any]) -> "Event":
        return Event(
            type=str(value["type"]),
            payload=value.get("payload", {}),
            metadata=value.get("metadata", {}),
            raw=value,
        )

    @property
    def run_id(self) -> str:
        return str(self.metadata.get("run_id", ""))

    @property
    def session_id(self) -> str:
        return str(self.metadata.get("session_id", ""))

    @property
    def sequence(self) -> int:
        return int(self.metadata.get("sequence", 0))

    @property
    def text(self) -> Optional[str]:
        """The text of a ``text_delta`` (the SDK's convenience field)."""
        value = self.raw.get("text")
        return value if isinstance(value, str) else None


@dataclass(frozen=True)
class ConfirmationRequest:
    """A tool call waiting for approval (from the ``confirmation_required`` event)."""

    tool_id: str
    tool_name: str
    args: Mapping[str, Any]
    rule: str


@dataclass(frozen=True)
class Question:
    """An ``ask_user`` question waiting for an answer (from the ``user_question`` event)."""

    question_id: str
    question: str
    options: list[str]
    context: Optional[str] = None


@dataclass(frozen=True)
class RunResult:
    """How a run settled (the ``run/result`` notification)."""

    run_id: str
    status: str  # completed | parked | cancelled | failed
    text: str
    usage: Optional[Mapping[str, int]]
    tool_calls: Optional[int]
    completion: Optional[str]
    parked: Optional[Mapping[str, Any]] = None
    #: Why the run failed; also set (code ``SUPERSEDED``) on a parked run a new prompt ended.
    error: Optional[Mapping[str, str]] = None
    #: Calls of the run refused before they ran (a rule, a hook, a confirmation not given).
    denied_calls: Optional[int] = None
    #: How a completed run ended: ``answer``, ``verification``, ``budget``, ``tool_rounds`` or
    #: ``output_limit`` (the answer was stopped at the model's output-token limit).
    ended_by: Optional[str] = None
    #: The passed verification report the run completed with.
    verification: Optional[Mapping[str, Any]] = None
    #: Steers accepted for the run that never reached the model: ``{requestId, text}`` each.
    undelivered_steers: Optional[list[Mapping[str, str]]] = None
    #: The parked run this run's prompt ended (its own result says ``cancelled``, ``SUPERSEDED``).
    superseded_run_id: Optional[str] = None

    @staticmethod
    def from_json(value: Mapping[str, Any]) -> "RunResult":
        steers = value.get("undeliveredSteers")
        superseded = value.get("supersededRunId")
        return RunResult(
            run_id=str(value["runId"]),
            status=str(value["status"]),
            text=str(value.get("text", "")),
            usage=value.get("usage"),
            tool_calls=value.get("toolCalls"),
            completion=value.get("completion"),
            parked=value.get("parked"),
            error=value.get("error"),
            denied_calls=value.get("deniedCalls"),
            ended_by=value.get("endedBy"),
            verification=value.get("verification"),
            undelivered_steers=list(steers) if isinstance(steers, list) else None,
            superseded_run_id=str(superseded) if superseded is not None else None,
        )


@dataclass(frozen=True)
class EventsDropped:
    """Events of a run the server did not send while the client read its output too slowly
    (the ``run/eventsDropped`` notification): ``dropped`` of them, sequences ``first_sequence`` to
    ``last_sequence``. The run's facts are all in its log; its result is never dropped."""

    run_id: str
    dropped: int
    first_sequence: int
    last_sequence: int

    @staticmethod
    def from_json(value: Mapping[str, Any]) -> "EventsDropped":
        return EventsDropped(
            run_id=str(value["runId"]),
            dropped=int(value["dropped"]),
            first_sequence=int(value["firstSequence"]),
            last_sequence=int(value["lastSequence"]),
        )


#: Approves (``True``) or refuses (``False``, or ``(False, "why")``) a tool call. Any other
#: answer (a list, a string, a dict) refuses the call and raises ``TypeError``.
ConfirmHandler = Callable[[ConfirmationRequest], Union[bool, tuple[bool, Optional[str]]]]
#: Answers a question with text, or ``None`` to skip it.
QuestionHandler = Callable[[Question], Optional[str]]


class ServerLink(Protocol):
    """What a :class:`Session` needs of the :class:`Client` that opened it."""

    timeout: Optional[float]

    def request(self, method: str, params: Optional[Mapping[str, Any]] = None) -> Any:
        """Sends one request and returns its result (raises :class:`ServeError`)."""
        ...

    def _gone_reason(self) -> str:
        """Why the server is gone, for an error."""
        ...
