"""What OpenAI-protocol endpoints accept, decided from the model id and the server.

OpenAI's reasoning models refuse parameters other models take for granted (temperature,
top_p, `max_tokens`) and each generation accepts its own set of `reasoning_effort`
values, while compatible servers (OpenRouter, Groq, DeepSeek, local servers) each spell
reasoning their own way. An unsupported value is an HTTP 400, not a warning, so every
rule here errs on the side of sending nothing: a parameter the model might reject is
left out and the server's default holds.

Pure data and lookups, shared by the Chat Completions and Responses adapters.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit

from desktop.core.capabilities import ReasoningEffort

Efforts = Mapping[ReasoningEffort, str | None]  # our level -> the wire value (None: omit)

_E = ReasoningEffort


class Dialect(StrEnum):
    """The server behind an OpenAI-compatible base URL, where it changes the request."""

    OPENAI = "openai"  # api.openai.com, Azure OpenAI: strict about unknown fields
    OPENROUTER = "openrouter"  # one `reasoning: {effort}` object for every model
    GROQ = "groq"  # strict about unknown message fields; its own Qwen3 effort values
    OTHER = "other"  # DeepSeek, vLLM, LM Studio, llama.cpp, Ollama and the rest

    @property
    def takes_reasoning_content(self) -> bool:
        """Whether assistant turns may carry `reasoning_content` (DeepSeek requires it
        on tool continuations; OpenAI and Groq reject the unknown field)."""
        return self is Dialect.OTHER


def dialect_for(base_url: str) -> Dialect:
    host = (urlsplit(base_url).hostname or "").lower()
    if host == "api.openai.com" or host.endswith(".openai.azure.com"):
        return Dialect.OPENAI
    if host == "openrouter.ai" or host.endswith(".openrouter.ai"):
        return Dialect.OPENROUTER
    if host == "api.groq.com":
        return Dialect.GROQ
    return Dialect.OTHER


@dataclass(frozen=True, slots=True)
class ModelFamily:
    """What one family of models accepts.

    `efforts` maps each level to the `reasoning_effort` value to send (None: leave the
    parameter out for that level); `efforts=None` means the model takes no such
    parameter at all. `fixed_sampling` marks OpenAI's reasoning models, which reject
    temperature and top_p and want `max_completion_tokens` instead of `max_tokens`.
    """

    name: str
    efforts: Efforts | None = None
    fixed_sampling: bool = False

    def effort(self, level: ReasoningEffort | None) -> str | None:
        if level is None or self.efforts is None:
            return None
        return self.efforts.get(level)


def _levels(off: str | None, maximum: str) -> Efforts:
    return {_E.OFF: off, _E.LOW: "low", _E.MEDIUM: "medium", _E.HIGH: "high", _E.MAX: maximum}


_O_SERIES = _levels(None, "high")  # reasoning cannot be switched off
_GPT5 = _levels("minimal", "high")
_GPT51 = _levels("none", "high")
_GPT52 = _levels("none", "xhigh")
_CODEX = _levels("low", "high")  # the codex models take neither "none" nor "minimal"
_CODEX_MAX = _levels("low", "xhigh")
_PRO = {_E.OFF: None, _E.LOW: "high", _E.MEDIUM: "high", _E.HIGH: "high", _E.MAX: "high"}
_GPT_OSS = _levels("low", "high")
_GROQ_QWEN3 = {
    _E.OFF: "none",
    _E.LOW: "default",
    _E.MEDIUM: "default",
    _E.HIGH: "default",
    _E.MAX: "default",
}
OPENROUTER_EFFORTS = _levels("none", "xhigh")  # OpenRouter maps these onto every model

# Matched against the bare id (lower case, any `vendor/` prefix removed); first wins.
_FAMILIES: tuple[tuple[str, ModelFamily], ...] = (
    (r"^gpt-5(\.\d+)?-chat", ModelFamily("gpt-5-chat")),  # not a reasoning model
    (r"^gpt-5(\.\d+)?-pro", ModelFamily("gpt-5-pro", _PRO, fixed_sampling=True)),
    (r"^gpt-5\.1-codex-max", ModelFamily("gpt-5.1-codex-max", _CODEX_MAX, fixed_sampling=True)),
    (r"^gpt-5(\.1)?-codex", ModelFamily("gpt-5-codex", _CODEX, fixed_sampling=True)),
    (r"^gpt-5\.\d+-codex", ModelFamily("gpt-5.2-codex", _CODEX_MAX, fixed_sampling=True)),
    (r"^gpt-5\.1(?!\d)", ModelFamily("gpt-5.1", _GPT51, fixed_sampling=True)),
    (r"^gpt-5\.\d+", ModelFamily("gpt-5.2", _GPT52, fixed_sampling=True)),
    (r"^gpt-5", ModelFamily("gpt-5", _GPT5, fixed_sampling=True)),
    (r"^o1-(mini|preview)", ModelFamily("o1-mini", fixed_sampling=True)),  # no effort knob
    (r"^o\d+(-|$)", ModelFamily("o-series", _O_SERIES, fixed_sampling=True)),
    (r"^codex-mini", ModelFamily("codex-mini", _O_SERIES, fixed_sampling=True)),
    (r"^gpt-oss", ModelFamily("gpt-oss", _GPT_OSS)),
)
_GROQ_FAMILIES: tuple[tuple[str, ModelFamily], ...] = (
    (r"^qwen3", ModelFamily("qwen3 (Groq)", _GROQ_QWEN3)),
)
OTHER = ModelFamily("other")  # DeepSeek, Llama, Qwen, Mistral...: no effort parameter


def bare_model_id(model: str) -> str:
    """`openai/gpt-5` (OpenRouter, Groq) and `gpt-5` are the same family."""
    return model.strip().lower().rsplit("/", 1)[-1]


def family_for(model: str, dialect: Dialect = Dialect.OTHER) -> ModelFamily:
    bare = bare_model_id(model)
    tables = (_GROQ_FAMILIES, _FAMILIES) if dialect is Dialect.GROQ else (_FAMILIES,)
    for table in tables:
        for pattern, family in table:
            if re.search(pattern, bare):
                return family
    return OTHER
