from __future__ import annotations

import pytest

from desktop.core.models import Message, ReasoningPart, Role, TextPart, ToolCallPart
from desktop.engine.context.tokens import (
    MESSAGE_OVERHEAD,
    TOOL_CALL_OVERHEAD,
    TOOL_SPEC_OVERHEAD,
    estimate_tokens,
    image_tokens,
    message_tokens,
    request_tokens,
)
from desktop.providers.base import (
    ChatRequest,
    ImageInput,
    RequestMessage,
    ToolCall,
    ToolResult,
    ToolSpec,
)

PROSE = "The quick brown fox jumps over the lazy dog while the farmer watches. " * 20
CODE = "def f(x):\n    return {'a': [x[i] + 1 for i in range(len(x))]}\n" * 20
CHINESE = "我们今天讨论了滚动摘要的设计和实现细节。" * 20


def test_empty_text_costs_nothing():
    assert estimate_tokens("") == 0


def test_latin_prose_is_about_four_characters_a_token():
    ratio = len(PROSE) / estimate_tokens(PROSE)
    assert 3.6 <= ratio <= 4.2


def test_code_is_denser_than_prose():
    ratio = len(CODE) / estimate_tokens(CODE)
    assert 2.5 <= ratio <= 3.4


def test_cjk_kana_and_hangul_cost_about_a_token_a_character():
    assert estimate_tokens(CHINESE) == len(CHINESE)
    assert estimate_tokens("こんにちはカタカナ") == 9
    assert estimate_tokens("안녕하세요") == 5


def test_mixed_text_is_estimated_part_by_part():
    mixed = "请把 summary 写短一点"
    assert estimate_tokens(mixed) == estimate_tokens("请把写短一点") + estimate_tokens("  summary ")


def test_a_message_counts_text_tool_calls_results_and_overhead():
    plain = Message("m", "c", None, Role.ASSISTANT, [TextPart("hello there")])
    assert message_tokens(plain) == MESSAGE_OVERHEAD + estimate_tokens("hello there")
    call = ToolCallPart("call_1", "read_file", '{"path": "a.txt"}', result="x" * 400)
    with_tool = Message("m", "c", None, Role.ASSISTANT, [TextPart("hello there"), call])
    assert message_tokens(with_tool) >= message_tokens(plain) + 100


def test_reasoning_counts_only_beside_tool_calls():
    thought = ReasoningPart("a long thought " * 50)
    plain = Message("m", "c", None, Role.ASSISTANT, [thought, TextPart("hi")])
    assert message_tokens(plain) == MESSAGE_OVERHEAD + estimate_tokens("hi")
    call = ToolCallPart("call_1", "now", "{}", result="noon")
    tooled = Message("m", "c", None, Role.ASSISTANT, [thought, TextPart("hi"), call])
    assert message_tokens(tooled) > message_tokens(plain) + estimate_tokens(thought.text) - 1


@pytest.mark.parametrize(
    ("size", "tokens"),
    [
        ((512, 512), 85 + 170),  # one tile
        ((1024, 768), 85 + 170 * 4),  # 2 × 2 tiles once its short side is 768
        ((4000, 3000), 85 + 170 * 4),  # scaled down the same way
        ((40, 30), 85 + 170),  # small images are not scaled up
        ((3000, 800), 85 + 170 * 8),  # a panorama: 2048 × 546, 4 × 2 tiles
        ((None, None), 85 + 170 * 4),  # a size not recorded counts as a photo's
    ],
)
def test_an_image_costs_what_a_vision_model_charges_for_it(size, tokens):
    assert image_tokens(*size) == tokens


def test_a_request_costs_its_system_text_turns_images_calls_and_tool_definitions():
    weather = ToolSpec("get_weather", "The weather in a city", {"type": "object"})
    request = ChatRequest(
        model="m",
        system="Be brief.",
        messages=(
            RequestMessage(Role.USER, "Hello", images=(ImageInput("image/png", b"", 512, 512),)),
            RequestMessage(
                Role.ASSISTANT,
                "Let me look.",
                reasoning="They want the weather.",
                tool_calls=(ToolCall("c1", "get_weather", '{"city": "Oslo"}'),),
                tool_results=(ToolResult("c1", "get_weather", "Sunny, 21 °C"),),
            ),
        ),
        tools=(weather,),
    )
    definition = '{"name": "get_weather", "description": "The weather in a city", '
    definition += '"parameters": {"type": "object"}}'
    expected = (
        MESSAGE_OVERHEAD
        + estimate_tokens("Be brief.")
        + MESSAGE_OVERHEAD
        + estimate_tokens("Hello")
        + image_tokens(512, 512)
        + MESSAGE_OVERHEAD
        + estimate_tokens("Let me look.")
        + estimate_tokens("They want the weather.")
        + TOOL_CALL_OVERHEAD
        + estimate_tokens("get_weather")
        + estimate_tokens('{"city": "Oslo"}')
        + estimate_tokens("Sunny, 21 °C")
        + TOOL_SPEC_OVERHEAD
        + estimate_tokens(definition)
    )
    assert request_tokens(request) == expected
    assert request_tokens(ChatRequest(model="m", messages=())) == 0
