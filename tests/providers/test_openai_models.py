"""Which OpenAI-protocol parameters each model family gets (the README's effort table)."""

from __future__ import annotations

import pytest

from desktop.core.capabilities import ReasoningEffort
from desktop.providers.openai_models import Dialect, bare_model_id, dialect_for, family_for

E = ReasoningEffort
LEVELS = (E.OFF, E.LOW, E.MEDIUM, E.HIGH, E.MAX)


@pytest.mark.parametrize(
    ("model", "efforts"),
    [
        ("gpt-5", ("minimal", "low", "medium", "high", "high")),
        ("gpt-5-mini-2025-08-07", ("minimal", "low", "medium", "high", "high")),
        ("gpt-5.1", ("none", "low", "medium", "high", "high")),
        ("gpt-5.2", ("none", "low", "medium", "high", "xhigh")),
        ("gpt-5.10", ("none", "low", "medium", "high", "xhigh")),
        ("gpt-5-codex", ("low", "low", "medium", "high", "high")),
        ("gpt-5.1-codex", ("low", "low", "medium", "high", "high")),
        ("gpt-5.1-codex-max", ("low", "low", "medium", "high", "xhigh")),
        ("gpt-5.2-codex", ("low", "low", "medium", "high", "xhigh")),
        ("gpt-5-pro", (None, "high", "high", "high", "high")),
        ("o1", (None, "low", "medium", "high", "high")),
        ("o3-mini", (None, "low", "medium", "high", "high")),
        ("o4-mini-2025-04-16", (None, "low", "medium", "high", "high")),
        ("openai/o3", (None, "low", "medium", "high", "high")),
        ("gpt-oss:20b", ("low", "low", "medium", "high", "high")),
        ("openai/gpt-oss-120b", ("low", "low", "medium", "high", "high")),
        ("o1-mini", (None,) * 5),
        ("gpt-5-chat-latest", (None,) * 5),
        ("gpt-4o", (None,) * 5),
        ("deepseek-reasoner", (None,) * 5),
        ("qwen3:8b", (None,) * 5),
        ("llama3.1", (None,) * 5),
        ("omni-moderation-latest", (None,) * 5),
    ],
)
def test_effort_values_per_family(model: str, efforts: tuple[str | None, ...]) -> None:
    family = family_for(model)
    assert tuple(family.effort(level) for level in LEVELS) == efforts
    assert family.effort(None) is None


@pytest.mark.parametrize(
    ("model", "fixed"),
    [
        ("o3", True),
        ("gpt-5-nano", True),
        ("gpt-5.1", True),
        ("o1-mini", True),
        ("gpt-5-chat-latest", False),
        ("gpt-4.1", False),
        ("gpt-oss-20b", False),
        ("deepseek-chat", False),
    ],
)
def test_reasoning_models_have_fixed_sampling(model: str, fixed: bool) -> None:
    assert family_for(model).fixed_sampling is fixed


def test_groq_qwen3_only_on_groq() -> None:
    assert family_for("qwen/qwen3-32b", Dialect.GROQ).effort(E.OFF) == "none"
    assert family_for("qwen/qwen3-32b", Dialect.GROQ).effort(E.MAX) == "default"
    assert family_for("qwen/qwen3-32b").effort(E.OFF) is None
    assert family_for("openai/gpt-oss-20b", Dialect.GROQ).effort(E.HIGH) == "high"


@pytest.mark.parametrize(
    ("url", "dialect"),
    [
        ("https://api.openai.com/v1", Dialect.OPENAI),
        ("https://my-east.openai.azure.com/openai/v1", Dialect.OPENAI),
        ("https://openrouter.ai/api/v1", Dialect.OPENROUTER),
        ("https://api.groq.com/openai/v1", Dialect.GROQ),
        ("https://api.deepseek.com", Dialect.OTHER),
        ("http://localhost:11434/v1", Dialect.OTHER),
        ("https://notopenai.com.example/v1", Dialect.OTHER),
        ("", Dialect.OTHER),
    ],
)
def test_dialect_from_base_url(url: str, dialect: Dialect) -> None:
    assert dialect_for(url) is dialect


def test_bare_model_id() -> None:
    assert bare_model_id(" OpenAI/GPT-5 ") == "gpt-5"
    assert bare_model_id("gpt-oss:20b") == "gpt-oss:20b"
