"""Drive A3S Code agents from Python through ``a3s serve`` (JSON-RPC 2.0 over stdio).

>>> with Client(["a3s", "serve"]) as client:
...     session = client.open_session("/repo")
...     for event in session.send("fix the failing test", on_confirm=lambda r: True):
...         print(event.type)
"""

from .client import Client
from .session import Run, Session
from .types import (
    ConfirmationRequest,
    ConfirmHandler,
    Event,
    EventsDropped,
    Question,
    QuestionHandler,
    RunResult,
    ServeError,
)

__all__ = [
    "Client",
    "ConfirmHandler",
    "ConfirmationRequest",
    "Event",
    "EventsDropped",
    "Question",
    "QuestionHandler",
    "Run",
    "RunResult",
    "ServeError",
    "Session",
]
__version__ = "0.1.0"
