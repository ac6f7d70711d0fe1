"""Assistants: a named bundle of system prompt, default model and sampling settings that a
conversation talks to.

Stored as `"assistants"` (a list) and `"default_assistant"` (an id) in settings.json.
The built-in "Parley" assistant (id "default", no prompt) always exists, even when the
list is empty, so every conversation resolves to some assistant; the list may replace it
by using the same id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from desktop.core.capabilities import REASONING_EFFORTS
from desktop.core.errors import SettingsError
from desktop.core.i18n import tr
from desktop.core.memory import MemoryMode
from desktop.core.models import ModelRef

DEFAULT_ID = "default"
DEFAULT_THRESHOLD = 32_000
MIN_THRESHOLD = 1000
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_MODEL_REF = re.compile(r"^([a-z0-9][a-z0-9_-]{0,39})/(.+)$")
_TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
_KEYS = {
    "id",
    "name",
    "icon",
    "system_prompt",
    "default_model",
    "temperature",
    "top_p",
    "max_output_tokens",
    "reasoning_effort",
    "allowed_tools",
    "allow_prompt_override",
    "context_threshold",
    "libraries",
    "retrieval",
    "past_chats",
    "memory",
    "global_memories",
    "starters",
}
MAX_STARTERS = 6
MAX_STARTER_CHARS = 500


class RetrievalMode(StrEnum):
    """How an answer reaches the assistant's libraries.

    `auto`: a model that can call tools searches when it needs to (`knowledge_search`),
    so its first token never waits for a search; any other model is given the best
    passages for the person's message before it starts (pre-retrieval). `pre_retrieve`:
    always the latter. `tool_only`: only on demand; a model without tool calling then
    answers without the documents, and the answer says so.
    """

    AUTO = "auto"
    PRE_RETRIEVE = "pre_retrieve"
    TOOL_ONLY = "tool_only"


@dataclass(frozen=True, slots=True)
class Assistant:
    id: str
    name: str
    icon: str = ""  # an emoji or a short symbol shown before the name
    system_prompt: str = ""
    default_model: ModelRef | None = None
    # None everywhere below: leave it to the conversation's model and the composer.
    temperature: float | None = None
    top_p: float | None = None
    max_output_tokens: int | None = None
    reasoning_effort: str | None = None
    allowed_tools: tuple[str, ...] | None = None  # None: every tool
    # Whether a conversation's own system prompt may replace this one's.
    allow_prompt_override: bool = True
    # Estimated tokens of history above which older messages are summarised.
    context_threshold: int = DEFAULT_THRESHOLD
    # Knowledge libraries (ids, see knowledge.py) whose passages its answers may use.
    libraries: tuple[str, ...] = ()
    retrieval: RetrievalMode = RetrievalMode.AUTO
    # Whether its answers may search the person's earlier chats (a tool, when the
    # model can call tools).
    past_chats: bool = False
    # How its answers see memories: its own, plus the global ones when it opts in.
    memory: MemoryMode = MemoryMode.OFF
    global_memories: bool = False
    # Messages a new chat offers to send with one click (the empty chat shows them).
    starters: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.icon} {self.name}" if self.icon else self.name


DEFAULT_ASSISTANT = Assistant(id=DEFAULT_ID, name="Parley")


def _number(data: dict[str, Any], key: str, where: str, low: float, high: float) -> float | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SettingsError(
            f"{where}.{key}", tr("must be a number, not {type}").format(type=type(value).__name__)
        )
    if not low <= value <= high:
        raise SettingsError(
            f"{where}.{key}", tr("must be between {low:g} and {high:g}").format(low=low, high=high)
        )
    return float(value)


def _whole(data: dict[str, Any], key: str, where: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingsError(
            f"{where}.{key}",
            tr("must be a whole number, not {type}").format(type=type(value).__name__),
        )
    return value


def _text(data: dict[str, Any], key: str, where: str, default: str = "") -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise SettingsError(
            f"{where}.{key}", tr("must be a string, not {type}").format(type=type(value).__name__)
        )
    return value


def _model(value: Any, where: str) -> ModelRef | None:
    if value is None:
        return None
    match = _MODEL_REF.match(value.strip()) if isinstance(value, str) else None
    if match is None or not match.group(2).strip():
        raise SettingsError(
            where,
            tr('{value!r} is not a "provider/model" reference (e.g. "openai/gpt-4o")').format(
                value=value
            ),
        )
    return ModelRef(match.group(1), match.group(2).strip())


def _tools(value: Any, where: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise SettingsError(where, tr("must be a list of tool names, or null for every tool"))
    names: list[str] = []
    for i, name in enumerate(value):
        if not isinstance(name, str) or not _TOOL_NAME.match(name):
            raise SettingsError(f"{where}[{i}]", tr("is not a tool name"))
        if name not in names:
            names.append(name)
    return tuple(names)


def _library_ids(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise SettingsError(where, tr("must be a list of library ids"))
    for i, library_id in enumerate(value):
        if not isinstance(library_id, str) or not _ID.match(library_id):
            raise SettingsError(f"{where}[{i}]", tr("is not a library id"))
    return tuple(dict.fromkeys(value))


def _retrieval(value: Any, where: str) -> RetrievalMode:
    try:
        return RetrievalMode(value)
    except ValueError:
        names = ", ".join(mode.value for mode in RetrievalMode)
        raise SettingsError(where, tr("must be one of: {names}").format(names=names)) from None


def parse_assistant(data: Any, where: str) -> Assistant:
    if not isinstance(data, dict):
        raise SettingsError(where, tr("must be an object"))
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise SettingsError(f"{where}.{unknown[0]}", tr("unknown setting (check the spelling)"))
    aid = data.get("id")
    if not isinstance(aid, str) or not _ID.match(aid):
        raise SettingsError(
            f"{where}.id", tr("must be 1-40 lowercase letters, digits, '-' or '_' (e.g. 'writer')")
        )
    name = _text(data, "name", where).strip()
    if not name:
        raise SettingsError(f"{where}.name", tr("must not be empty"))
    tokens = _whole(data, "max_output_tokens", where)
    if tokens is not None and tokens <= 0:
        raise SettingsError(f"{where}.max_output_tokens", tr("must be more than 0"))
    threshold = _whole(data, "context_threshold", where)
    if threshold is not None and threshold < MIN_THRESHOLD:
        raise SettingsError(
            f"{where}.context_threshold",
            tr("must be at least {min_threshold}").format(min_threshold=MIN_THRESHOLD),
        )
    effort = data.get("reasoning_effort")
    if effort is not None and effort not in REASONING_EFFORTS:
        raise SettingsError(
            f"{where}.reasoning_effort",
            tr("must be one of: {names}, or null").format(names=", ".join(REASONING_EFFORTS)),
        )
    override = data.get("allow_prompt_override", True)
    if not isinstance(override, bool):
        raise SettingsError(f"{where}.allow_prompt_override", tr("must be true or false"))
    past_chats = data.get("past_chats", False)
    if not isinstance(past_chats, bool):
        raise SettingsError(f"{where}.past_chats", tr("must be true or false"))
    global_memories = data.get("global_memories", False)
    if not isinstance(global_memories, bool):
        raise SettingsError(f"{where}.global_memories", tr("must be true or false"))
    try:
        memory = MemoryMode(data.get("memory", MemoryMode.OFF.value))
    except ValueError:
        names = ", ".join(mode.value for mode in MemoryMode)
        raise SettingsError(
            f"{where}.memory", tr("must be one of: {names}").format(names=names)
        ) from None
    return Assistant(
        id=aid,
        name=name,
        icon=_text(data, "icon", where).strip(),
        system_prompt=_text(data, "system_prompt", where),
        default_model=_model(data.get("default_model"), f"{where}.default_model"),
        temperature=_number(data, "temperature", where, 0, 2),
        top_p=_number(data, "top_p", where, 0, 1),
        max_output_tokens=tokens,
        reasoning_effort=effort,
        allowed_tools=_tools(data.get("allowed_tools"), f"{where}.allowed_tools"),
        allow_prompt_override=override,
        context_threshold=threshold if threshold is not None else DEFAULT_THRESHOLD,
        libraries=_library_ids(data.get("libraries", []), f"{where}.libraries"),
        past_chats=past_chats,
        memory=memory,
        global_memories=global_memories,
        retrieval=_retrieval(data.get("retrieval", RetrievalMode.AUTO.value), f"{where}.retrieval"),
        starters=_starters(data.get("starters", []), f"{where}.starters"),
    )


def _starters(value: Any, where: str) -> tuple[str, ...]:
    """At most `MAX_STARTERS` non-empty texts of at most `MAX_STARTER_CHARS` each."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SettingsError(where, tr("must be a list of texts"))
    starters = tuple(v.strip() for v in value if v.strip())
    if len(starters) > MAX_STARTERS:
        raise SettingsError(where, tr("must hold at most {n} texts").format(n=MAX_STARTERS))
    if any(len(v) > MAX_STARTER_CHARS for v in starters):
        raise SettingsError(
            where, tr("each must be at most {n} characters").format(n=MAX_STARTER_CHARS)
        )
    return starters


def parse_assistants(data: Any, default_id: Any) -> tuple[tuple[Assistant, ...], str]:
    """The configured assistants and the default one's id, which must name one of them
    or the built-in assistant."""
    if not isinstance(data, list):
        raise SettingsError("assistants", tr("must be a list"))
    assistants = [parse_assistant(a, f"assistants[{i}]") for i, a in enumerate(data)]
    seen: set[str] = set()
    for i, assistant in enumerate(assistants):
        if assistant.id in seen:
            raise SettingsError(
                f"assistants[{i}].id", tr("{id!r} is used twice").format(id=assistant.id)
            )
        seen.add(assistant.id)
    if not isinstance(default_id, str):
        raise SettingsError("default_assistant", tr("must be an assistant id"))
    if default_id != DEFAULT_ID and default_id not in seen:
        raise SettingsError(
            "default_assistant",
            tr("{default_id!r} is not one of the assistants").format(default_id=default_id),
        )
    return tuple(assistants), default_id


def dump_assistant(assistant: Assistant) -> dict[str, Any]:
    """Only what differs from an assistant's defaults, so settings.json stays short."""
    data: dict[str, Any] = {"id": assistant.id, "name": assistant.name}
    if assistant.icon:
        data["icon"] = assistant.icon
    if assistant.system_prompt:
        data["system_prompt"] = assistant.system_prompt
    if assistant.default_model is not None:
        data["default_model"] = str(assistant.default_model)
    for key in ("temperature", "top_p", "max_output_tokens", "reasoning_effort"):
        if getattr(assistant, key) is not None:
            data[key] = getattr(assistant, key)
    if assistant.allowed_tools is not None:
        data["allowed_tools"] = list(assistant.allowed_tools)
    if not assistant.allow_prompt_override:
        data["allow_prompt_override"] = False
    if assistant.context_threshold != DEFAULT_THRESHOLD:
        data["context_threshold"] = assistant.context_threshold
    if assistant.libraries:
        data["libraries"] = list(assistant.libraries)
    if assistant.past_chats:
        data["past_chats"] = True
    if assistant.memory is not MemoryMode.OFF:
        data["memory"] = assistant.memory.value
    if assistant.global_memories:
        data["global_memories"] = True
    if assistant.retrieval is not RetrievalMode.AUTO:
        data["retrieval"] = assistant.retrieval.value
    if assistant.starters:
        data["starters"] = list(assistant.starters)
    return data


def with_builtin(assistants: tuple[Assistant, ...]) -> tuple[Assistant, ...]:
    """Every assistant a person can pick: the built-in one first unless the list
    replaces it."""
    if any(a.id == DEFAULT_ID for a in assistants):
        return assistants
    return (DEFAULT_ASSISTANT, *assistants)
