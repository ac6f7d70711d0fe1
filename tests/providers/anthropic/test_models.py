"""Claude model families and the tokens and thinking each request asks for."""

from __future__ import annotations

from typing import Any

import pytest

from desktop.core.capabilities import ReasoningEffort
from desktop.core.models import Role
from desktop.providers.anthropic.models import (
    ClaudeFamily,
    Sampling,
    Thinking,
    claude_family,
    plan_tokens,
)
from desktop.providers.base import ChatRequest, RequestMessage

HI = RequestMessage(Role.USER, "Hi")


@pytest.mark.parametrize(
    ("model", "family"),
    [
        ("claude-3-haiku-20240307", ClaudeFamily(max_output=4096)),
        ("claude-3-opus-latest", ClaudeFamily(max_output=4096)),
        ("claude-3-5-sonnet-20241022", ClaudeFamily(max_output=8192)),
        ("claude-3-5-haiku-latest", ClaudeFamily(max_output=8192)),
        ("claude-3-7-sonnet-20250219", ClaudeFamily(Thinking.BUDGET, Sampling.BOTH, 64000)),
        ("anthropic/claude-3.7-sonnet", ClaudeFamily(Thinking.BUDGET, Sampling.BOTH, 64000)),
        ("claude-sonnet-4-20250514", ClaudeFamily(Thinking.BUDGET, Sampling.BOTH, 64000)),
        ("claude-sonnet-4@20250514", ClaudeFamily(Thinking.BUDGET, Sampling.BOTH, 64000)),
        (
            "us.anthropic.claude-opus-4-20250514-v1:0",
            ClaudeFamily(Thinking.BUDGET, Sampling.BOTH, 32000),
        ),
        ("claude-opus-4-0", ClaudeFamily(Thinking.BUDGET, Sampling.BOTH, 32000)),
        ("claude-opus-4-1-20250805", ClaudeFamily(Thinking.BUDGET, Sampling.ONE, 32000)),
        ("claude-sonnet-4-5", ClaudeFamily(Thinking.BUDGET, Sampling.ONE, 64000)),
        ("claude-haiku-4-5-20251001", ClaudeFamily(Thinking.BUDGET, Sampling.ONE, 64000)),
        ("anthropic/claude-haiku-4.5", ClaudeFamily(Thinking.BUDGET, Sampling.ONE, 64000)),
        ("claude-opus-4-5-20251101", ClaudeFamily(Thinking.BUDGET, Sampling.ONE, 64000)),
        ("claude-opus-4-6", ClaudeFamily(Thinking.ADAPTIVE, Sampling.ONE, 128000)),
        ("claude-sonnet-4-6", ClaudeFamily(Thinking.ADAPTIVE, Sampling.ONE, 64000)),
        ("claude-opus-4-7", ClaudeFamily(Thinking.ADAPTIVE, Sampling.NONE, 128000)),
        ("claude-fable-5", ClaudeFamily(Thinking.ADAPTIVE, Sampling.NONE, 64000)),
        ("deepseek-chat", ClaudeFamily()),
        ("claude-mythos-preview", ClaudeFamily()),
    ],
)
def test_claude_family(model: str, family: ClaudeFamily) -> None:
    assert claude_family(model) == family


def plan(model: str, effort: ReasoningEffort | None, max_output: int | None = None) -> Any:
    request = ChatRequest(
        model=model, messages=(HI,), reasoning_effort=effort, max_output_tokens=max_output
    )
    return plan_tokens(request, claude_family(model))


@pytest.mark.parametrize(
    ("effort", "budget", "max_tokens"),
    [
        (ReasoningEffort.LOW, 2048, 10240),
        (ReasoningEffort.MEDIUM, 8192, 16384),
        (ReasoningEffort.HIGH, 16384, 24576),
        (ReasoningEffort.MAX, 32000, 40192),
    ],
)
def test_budget_per_effort(effort: ReasoningEffort, budget: int, max_tokens: int) -> None:
    result = plan("claude-sonnet-4-5", effort)
    assert result.thinking == {"type": "enabled", "budget_tokens": budget}
    assert result.max_tokens == max_tokens


@pytest.mark.parametrize("effort", [None, ReasoningEffort.OFF])
def test_no_thinking_when_off(effort: ReasoningEffort | None) -> None:
    result = plan("claude-sonnet-4-5", effort)
    assert (result.max_tokens, result.thinking, result.effort) == (8192, None, None)


def test_the_persons_limit_bounds_the_budget() -> None:
    result = plan("claude-sonnet-4-5", ReasoningEffort.HIGH, max_output=4096)
    assert result.max_tokens == 4096
    assert result.thinking == {"type": "enabled", "budget_tokens": 3072}


def test_too_small_a_limit_leaves_no_room_to_think() -> None:
    result = plan("claude-sonnet-4-5", ReasoningEffort.LOW, max_output=2000)
    assert (result.max_tokens, result.thinking) == (2000, None)


def test_the_limit_is_clamped_to_what_the_model_accepts() -> None:
    assert plan("claude-3-5-haiku-latest", None, max_output=100_000).max_tokens == 8192
    assert plan("some-gateway-model", None, max_output=100_000).max_tokens == 100_000


@pytest.mark.parametrize("effort", ["low", "medium", "high", "max"])
def test_adaptive_effort_is_named(effort: str) -> None:
    result = plan("claude-opus-4-7", ReasoningEffort(effort))
    assert result.thinking == {"type": "adaptive", "display": "summarized"}
    assert result.effort == effort
