"""What a model can do and how hard it may think: plain data every layer reads.

Storage keeps a person's overrides, the engine decides what a request may carry, the UI
shows the flags, and each provider adapter maps the effort onto its wire; none of them
should have to import a provider module to name these.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ReasoningEffort(StrEnum):
    """How hard a reasoning model should think; each adapter maps or clamps it."""

    OFF = "off"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    MAX = "max"


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a model can do. The UI and engine check these flags, never provider classes."""

    supports_vision: bool = False
    supports_tools: bool = False
    supports_system_role: bool = True
    supports_reasoning: bool = False
    context_length: int | None = None


@dataclass(frozen=True, slots=True)
class ReportedCapabilities:
    """What an endpoint itself says about one of its models; None where it says nothing.

    Kept apart from `Capabilities` because "not stated" must not read as "no": Ollama
    states vision but not the system role, OpenRouter states tools but not reasoning
    for some models, and each unstated field keeps what the known-model table says.
    `chat` is False for a model that cannot answer at all (an embedding model).
    """

    vision: bool | None = None
    tools: bool | None = None
    reasoning: bool | None = None
    system_role: bool | None = None
    context_length: int | None = None
    chat: bool | None = None

    @property
    def is_empty(self) -> bool:
        return self == ReportedCapabilities()


# The effort values as settings and assistants store them, mildest first.
REASONING_EFFORTS: tuple[str, ...] = tuple(effort.value for effort in ReasoningEffort)
