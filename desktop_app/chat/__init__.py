"""Qt-free chat pipeline: recall memories, stream a reply, store the turn, extract knowledge."""

from desktop_app.chat.pipeline import ChatPipeline, PreparedTurn, TurnOutcome
from desktop_app.chat.problems import Problem, describe_error
from desktop_app.core.errors import ProviderNotConfiguredError

__all__ = [
    "ChatPipeline",
    "PreparedTurn",
    "Problem",
    "ProviderNotConfiguredError",
    "TurnOutcome",
    "describe_error",
]
