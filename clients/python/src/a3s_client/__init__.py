"""Drive A3S Code agents from Python through ``a3s serve`` (JSON-RPC 2.0 over stdio).

>>> with Client(["a3s", "serve"]) as client:
...     session = client.open_session("/repo")
...     for event in session.send("fix the failing test", on_confirm=lambda r: True):
...         print(event.type)
"""

from .client import Client, Run, Session
from .types import ConfirmationRequest, ConfirmHandler, Event, Question, QuestionHandler, RunResult, ServeError

__all__ = [
    "Client",
    "ConfirmHandler",
    "ConfirmationRequest",
    "Event",
    "Question",
    "QuestionHandler",
    "Run",
    "RunResult",
    "ServeError",
    "Session",
]
__version__ = "0.1.0"
