"""What the conversation's assistant changes about a request: which assistant it is, its
sampling settings over the composer's, and which tools it may offer.

Pure functions over settings and plain data, so the generation pipeline can apply them
per model step and tests can check them without a provider.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TypeVar

from desktop.core.assistants import Assistant
from desktop.core.capabilities import ReasoningEffort
from desktop.core.models import Conversation
from desktop.core.settings import Settings
from desktop.engine.prompt.request_builder import RequestOptions

_T = TypeVar("_T")


def assistant_for(settings: Settings, conversation: Conversation | None) -> Assistant:
    """The conversation's assistant; the default one for a new chat, or when the
    conversation's assistant was deleted since (its messages stay readable)."""
    return settings.assistant(conversation.assistant_id if conversation else None)


def options_for(assistant: Assistant, base: RequestOptions) -> RequestOptions:
    """`base` with the assistant's settings where it has any: an assistant made for
    precise answers keeps its low temperature whatever the composer last used."""
    effort = assistant.reasoning_effort
    return replace(
        base,
        temperature=_first(assistant.temperature, base.temperature),
        top_p=_first(assistant.top_p, base.top_p),
        max_output_tokens=_first(assistant.max_output_tokens, base.max_output_tokens),
        reasoning_effort=ReasoningEffort(effort) if effort is not None else base.reasoning_effort,
    )


def _first(value: _T | None, fallback: _T | None) -> _T | None:
    return value if value is not None else fallback


def allowed(assistant: Assistant, tool_names: Iterable[str]) -> set[str]:
    """The names among `tool_names` this assistant may offer the model (all of them
    when it does not limit its tools)."""
    names = set(tool_names)
    if assistant.allowed_tools is None:
        return names
    return names & set(assistant.allowed_tools)
