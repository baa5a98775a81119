"""Qt-free chat pipeline: recall memories, stream a reply, store the turn, extract knowledge."""

from desktop_app.chat.pipeline import ChatPipeline, PreparedTurn, TurnOutcome
from desktop_app.chat.problems import Problem, ProviderNotConfiguredError, describe_error

__all__ = [
    "ChatPipeline",
    "PreparedTurn",
    "Problem",
    "ProviderNotConfiguredError",
    "TurnOutcome",
    "describe_error",
]
