"""What the engine sends: history, tool calls and results, reasoning, capabilities."""

from __future__ import annotations

from desktop.core.capabilities import Capabilities, ReasoningEffort
from desktop.core.models import (
    ErrorPart,
    Message,
    MessageStatus,
    NoticePart,
    Part,
    ReasoningPart,
    Role,
    TextPart,
    ToolCallPart,
    new_id,
)
from desktop.engine.prompt.request_builder import (
    RequestOptions,
    build_continue_request,
    build_request,
    build_tool_request,
)
from desktop.providers.base import RequestMessage, ToolCall, ToolResult, ToolSpec


def node(role: Role, *parts: Part, status: MessageStatus = MessageStatus.COMPLETE) -> Message:
    return Message(new_id(), "c", None, role, list(parts), status=status)


def user(text: str) -> Message:
    return node(Role.USER, TextPart(text))


REASONER = Capabilities(supports_reasoning=True, supports_tools=True)
TOOL = ToolSpec("get_weather", "Weather for a city", {"type": "object"})


def test_plain_history_with_empty_answers_left_out():
    failed = node(Role.ASSISTANT, ErrorPart("boom"), status=MessageStatus.ERROR)
    request = build_request([user("Hi"), failed, user("Again")], "m")
    assert request.messages == (
        RequestMessage(Role.USER, "Hi"),
        RequestMessage(Role.USER, "Again"),
    )
    assert request.system is None and request.reasoning_effort is None and request.tools == ()


def test_an_answer_with_tool_calls_carries_them_their_results_and_its_signed_reasoning():
    answer = node(
        Role.ASSISTANT,
        ReasoningPart("Earlier thought", 10),
        ReasoningPart("I need the weather.", 100, signature="sig-abc"),
        TextPart("Checking."),
        ToolCallPart("call_1", "get_weather", '{"city": "Paris"}', result="18 °C, sunny"),
        ToolCallPart("call_2", "get_time", "", result="denied", is_error=True),
    )
    request = build_request([user("Weather?"), answer, user("Thanks")], "m")
    sent = request.messages[1]
    assert sent == RequestMessage(
        Role.ASSISTANT,
        "Checking.",
        reasoning="I need the weather.",  # the text the signature vouches for, exactly
        reasoning_signature="sig-abc",
        tool_calls=(
            ToolCall("call_1", "get_weather", '{"city": "Paris"}'),
            ToolCall("call_2", "get_time", "{}"),  # no arguments: an empty object
        ),
        tool_results=(
            ToolResult("call_1", "get_weather", "18 °C, sunny"),
            ToolResult("call_2", "get_time", "denied", is_error=True),
        ),
    )


def test_unsigned_reasoning_goes_back_whole_and_only_results_that_exist_are_sent():
    answer = node(
        Role.ASSISTANT,
        ReasoningPart("Step one.", 5),
        ReasoningPart("Step two.", 5),
        ToolCallPart("c1", "search", '{"q": "x"}'),
        NoticePart("no tools"),
    )
    (_, sent, _) = build_request([user("Q"), answer, user("Go on")], "m").messages
    assert sent.text == ""
    assert sent.reasoning == "Step one.\n\nStep two."
    assert sent.reasoning_signature is None
    assert sent.tool_calls == (ToolCall("c1", "search", '{"q": "x"}'),)
    assert sent.tool_results == ()  # never ran: the adapter answers it its wire's way


def test_reasoning_text_is_not_sent_back_on_answers_without_tool_calls_but_the_signature_is():
    """Gemini wants every signature back; each wire decides where, or whether at all."""
    answer = node(Role.ASSISTANT, ReasoningPart("thinking", 5, "sig"), TextPart("Hello"))
    (_, sent, _) = build_request([user("Hi"), answer, user("More")], "m").messages
    assert sent == RequestMessage(Role.ASSISTANT, "Hello", reasoning_signature="sig")


def test_options_pass_through_for_a_capable_model():
    options = RequestOptions(
        capabilities=REASONER,
        system="Be brief.",
        temperature=0.3,
        top_p=0.9,
        max_output_tokens=512,
        reasoning_effort=ReasoningEffort.HIGH,
        tools=(TOOL,),
        extra_headers={"X-Team": "blue"},
        extra_body={"seed": 7},
    )
    request = build_request([user("Hi")], "m", options)
    assert request.system == "Be brief."
    assert (request.temperature, request.top_p, request.max_output_tokens) == (0.3, 0.9, 512)
    assert request.reasoning_effort is ReasoningEffort.HIGH
    assert request.tools == (TOOL,)
    assert request.extra_headers == {"X-Team": "blue"}
    assert request.extra_body == {"seed": 7}


def test_what_the_model_cannot_do_is_not_asked_of_it():
    options = RequestOptions(
        capabilities=Capabilities(supports_system_role=False),
        system="Be brief.",
        reasoning_effort=ReasoningEffort.HIGH,
        tools=(TOOL,),
    )
    request = build_request([user("Hi")], "m", options)
    assert request.reasoning_effort is None
    assert request.tools == ()
    assert request.system is None
    assert request.messages == (
        RequestMessage(Role.USER, "Be brief."),
        RequestMessage(Role.USER, "Hi"),
    )


def test_reasoning_off_is_sent_as_off_to_a_reasoning_model():
    options = RequestOptions(capabilities=REASONER, reasoning_effort=ReasoningEffort.OFF)
    assert build_request([user("Hi")], "m", options).reasoning_effort is ReasoningEffort.OFF


def test_a_continue_request_carries_the_options_too():
    options = RequestOptions(capabilities=REASONER, reasoning_effort=ReasoningEffort.LOW)
    partial = node(Role.ASSISTANT, TextPart("Half"), status=MessageStatus.ERROR)
    request = build_continue_request([user("Q"), partial], "m", options)
    assert request.reasoning_effort is ReasoningEffort.LOW
    assert [m.role for m in request.messages] == [Role.USER, Role.ASSISTANT, Role.USER]


def test_an_answer_of_several_tool_steps_goes_back_one_turn_per_step():
    answer = node(
        Role.ASSISTANT,
        TextPart("Checking."),
        ToolCallPart("c1", "current_time", "{}", "noon"),
        TextPart("Now the weather."),
        ToolCallPart("c2", "get_weather", '{"city":"Oslo"}', "rain"),
    )
    request = build_tool_request([user("Time and weather?"), answer], "m")
    assert request.messages[1:] == (
        RequestMessage(
            Role.ASSISTANT,
            "Checking.",
            tool_calls=(ToolCall("c1", "current_time", "{}"),),
            tool_results=(ToolResult("c1", "current_time", "noon"),),
        ),
        RequestMessage(
            Role.ASSISTANT,
            "Now the weather.",
            tool_calls=(ToolCall("c2", "get_weather", '{"city":"Oslo"}'),),
            tool_results=(ToolResult("c2", "get_weather", "rain"),),
        ),
    )
