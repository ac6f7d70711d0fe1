from desktop.core.events import (
    Finished,
    ReasoningDelta,
    ReasoningSignature,
    Retrying,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from desktop.core.models import ReasoningPart, TextPart, ToolCallPart, Usage
from desktop.engine.turn.stream_fold import Draft, Folding, close_open, fold


def run(events, times=None):
    draft = Draft()
    for i, event in enumerate(events):
        draft = fold(draft, event, times[i] if times else float(i))
    return draft


def test_text_deltas_join_into_one_part():
    draft = run([TextDelta("Hel"), TextDelta("lo"), TextDelta(", world")])
    assert draft.parts() == [TextPart("Hello, world")]


def test_reasoning_then_text_closes_reasoning_with_its_duration():
    draft = run(
        [ReasoningDelta("Let me "), ReasoningDelta("think."), TextDelta("Answer")],
        times=[10.0, 10.5, 12.25],
    )
    assert draft.parts() == [ReasoningPart("Let me think.", duration_ms=2250), TextPart("Answer")]
    assert draft.first_token_at == 10.0


def test_open_reasoning_has_no_duration_until_closed():
    draft = run([ReasoningDelta("hmm")], times=[1.0])
    assert draft.parts() == [ReasoningPart("hmm", duration_ms=None)]
    closed = close_open(draft, 3.0)
    assert closed.parts() == [ReasoningPart("hmm", duration_ms=2000)]


def test_usage_and_finish_reason_are_recorded_without_adding_parts():
    usage = Usage(input_tokens=5, output_tokens=7, reasoning_tokens=2)
    draft = run([TextDelta("x"), UsageReport(usage), Finished("stop")])
    assert draft.usage == usage
    assert draft.finish_reason == "stop"
    assert draft.parts() == [TextPart("x")]


def test_empty_deltas_do_not_start_parts_or_first_token():
    draft = run([TextDelta(""), ReasoningDelta("")])
    assert draft.parts() == []
    assert draft.first_token_at is None
    assert not draft.has_content


def test_fold_is_pure_earlier_drafts_are_unchanged():
    first = fold(Draft(), TextDelta("a"), 0.0)
    second = fold(first, TextDelta("b"), 1.0)
    assert first.parts() == [TextPart("a")]
    assert second.parts() == [TextPart("ab")]


def test_interleaved_reasoning_and_text_keep_their_order():
    draft = run([ReasoningDelta("r1"), TextDelta("t1"), ReasoningDelta("r2"), TextDelta("t2")])
    kinds = [type(p).__name__ for p in close_open(draft, 9.0).parts()]
    assert kinds == ["ReasoningPart", "TextPart", "ReasoningPart", "TextPart"]


def test_many_small_deltas_stay_linear():
    # 200,000 one-character deltas: a quadratic fold would take minutes here.
    draft = Draft()
    for _ in range(200_000):
        draft = fold(draft, TextDelta("x"), 0.0)
    assert draft.parts() == [TextPart("x" * 200_000)]


# --- tool calls -----------------------------------------------------------------------


def test_tool_call_pieces_join_per_index_after_the_text_before_them():
    draft = run(
        [
            TextDelta("Let me check."),
            ToolCallDelta(0, "call_a", "get_weather", '{"ci'),
            ToolCallDelta(0, arguments='ty": "Par'),
            ToolCallDelta(0, arguments='is"}'),
            ToolCallDelta(1, "call_b", "get_time", ""),
            ToolCallDelta(1, arguments='{"tz": "CET"}'),
            Finished("tool_calls"),
        ]
    )
    assert draft.parts() == [
        TextPart("Let me check."),
        ToolCallPart("call_a", "get_weather", '{"city": "Paris"}'),
        ToolCallPart("call_b", "get_time", '{"tz": "CET"}'),
    ]
    assert draft.finish_reason == "tool_calls"


def test_an_open_call_shows_in_parts_while_it_streams():
    draft = run([ToolCallDelta(0, "c1", "search", '{"q": "ca')])
    assert draft.parts() == [ToolCallPart("c1", "search", '{"q": "ca')]
    assert draft.has_content and draft.first_token_at == 0.0
    draft = run([ToolCallDelta(0, "c1", "search")])
    assert draft.parts() == [ToolCallPart("c1", "search", "")]
    assert draft.has_content


def test_interleaved_calls_stay_in_their_places():
    draft = run(
        [
            ToolCallDelta(0, "a", "one", "{"),
            ToolCallDelta(1, "b", "two", "["),
            ToolCallDelta(0, arguments="}"),
            ToolCallDelta(1, arguments="]"),
        ]
    )
    assert draft.parts() == [ToolCallPart("a", "one", "{}"), ToolCallPart("b", "two", "[]")]


def test_text_after_a_call_comes_after_it():
    draft = run([ToolCallDelta(0, "a", "one", "{}"), TextDelta("done")])
    assert draft.parts() == [ToolCallPart("a", "one", "{}"), TextPart("done")]


def test_calls_without_ids_get_ids_unique_within_the_answer():
    draft = Draft(call_id_prefix="call_m1")
    for i, event in enumerate(
        [
            ToolCallDelta(0, None, "one", "{}"),
            ToolCallDelta(1, None, "two", "{}"),
            Finished("stop"),
            # A later model step numbers its calls from 0 again: a new call, a new id.
            ToolCallDelta(0, None, "three", "{}"),
        ]
    ):
        draft = fold(draft, event, float(i))
    assert [(c.call_id, c.name) for c in draft.tool_calls()] == [
        ("call_m1_0", "one"),
        ("call_m1_1", "two"),
        ("call_m1_2", "three"),
    ]


def test_an_id_or_name_arriving_after_the_first_piece_is_kept():
    draft = run([ToolCallDelta(0, arguments='{"a"'), ToolCallDelta(0, "late", "fn", ": 1}")])
    assert draft.parts() == [ToolCallPart("late", "fn", '{"a": 1}')]


# --- reasoning signatures -------------------------------------------------------------------


def test_a_signature_attaches_to_the_open_reasoning():
    draft = run(
        [ReasoningDelta("Hmm."), ReasoningSignature("sig-1"), TextDelta("Hi")],
        times=[0.0, 0.5, 1.0],
    )
    assert draft.parts() == [ReasoningPart("Hmm.", 1000, "sig-1"), TextPart("Hi")]


def test_a_late_signature_attaches_to_the_latest_reasoning():
    draft = run(
        [
            ReasoningDelta("first"),
            TextDelta("a"),
            ReasoningDelta("second"),
            TextDelta("b"),
            ReasoningSignature("sig-2"),
        ]
    )
    reasoning = [p for p in draft.parts() if isinstance(p, ReasoningPart)]
    assert [(p.text, p.signature) for p in reasoning] == [("first", None), ("second", "sig-2")]


def test_a_later_step_keeps_its_signature_apart_from_the_earlier_steps():
    """Each step of a tool-using answer goes back with its own signature: the second
    step's must not overwrite the first's, and its calls stay a step of their own."""
    draft = run(
        [
            ReasoningDelta("Need the time."),
            ReasoningSignature("sig-1"),
            ToolCallDelta(0, "a", "now", "{}"),
            Finished("STOP"),
        ]
    )
    draft = close_open(draft, 4.0)
    for event in [ReasoningSignature("sig-2"), ToolCallDelta(0, "b", "now", "{}"), Finished()]:
        draft = fold(draft, event, 5.0)
    assert [(type(p).__name__, getattr(p, "signature", None)) for p in draft.parts()] == [
        ("ReasoningPart", "sig-1"),
        ("ToolCallPart", None),
        ("ReasoningPart", "sig-2"),
        ("ToolCallPart", None),
    ]


def test_a_signature_at_the_end_of_a_step_goes_before_its_calls():
    """Gemini may sign a step last, after parallel calls: the signature must not land
    between them (that would split one step's calls into two)."""
    draft = run(
        [
            ToolCallDelta(0, "a", "now", "{}"),
            ToolCallDelta(1, "b", "now", "{}"),
            ToolCallDelta(0, arguments=""),
            ReasoningSignature("sig-end"),
            ToolCallDelta(1, arguments=""),
            ToolCallDelta(0, arguments=""),  # the first call, one place further on now
        ]
    )
    assert [type(p).__name__ for p in draft.parts()] == [
        "ReasoningPart",
        "ToolCallPart",
        "ToolCallPart",
    ]
    assert draft.parts()[0].signature == "sig-end"


def test_a_signature_without_reasoning_is_kept_on_an_empty_reasoning_part():
    draft = run([ToolCallDelta(0, None, "fn", '{"x"'), ReasoningSignature("g-sig")])
    draft = fold(draft, ToolCallDelta(0, arguments=": 1}"), 9.0)
    assert draft.parts() == [
        ReasoningPart("", 0, "g-sig"),
        ToolCallPart("call_0", "fn", '{"x": 1}'),
    ]
    assert draft.first_token_at == 0.0


# --- retries -----------------------------------------------------------------------------------


def test_retrying_is_a_status_not_content_and_the_next_event_clears_it():
    wait = Retrying("Rate limited", 4.0, attempt=2, max_attempts=3)
    draft = run([wait])
    assert draft.retrying == wait
    assert draft.first_token_at is None and not draft.has_content and draft.parts() == []
    draft = fold(draft, TextDelta("Hello"), 5.0)
    assert draft.retrying is None
    assert draft.first_token_at == 5.0
    assert draft.parts() == [TextPart("Hello")]


def test_each_event_costs_the_same_however_many_calls_came_before():
    # 100,000 argument pieces of one call, after 200 earlier calls.
    draft = Draft()
    for i in range(200):
        draft = fold(draft, ToolCallDelta(i, f"c{i}", "f", "{}"), 0.0)
    for _ in range(100_000):
        draft = fold(draft, ToolCallDelta(200, "last", "f", "x"), 0.0)
    assert draft.tool_calls()[-1].arguments == "x" * 100_000


# --- folding runs of deltas when read ----------------------------------------------------------

MIXED = [
    Retrying("Rate limited", 1.0, attempt=2, max_attempts=3),
    TextDelta(""),
    ReasoningDelta("Let "),
    ReasoningDelta(""),
    ReasoningDelta("me think."),
    ReasoningSignature("sig"),
    TextDelta(""),
    TextDelta("The "),
    TextDelta("answer"),
    ToolCallDelta(0, "c1", "look", '{"q":'),
    ToolCallDelta(0, None, None, '"x"}'),
    TextDelta(" is 42."),
    ReasoningDelta("More."),
    TextDelta("Done."),
    UsageReport(Usage(3, 9, 2)),
    Finished("stop"),
    TextDelta("Next step."),
]


def facts(draft: Draft) -> tuple[object, ...]:
    return (
        draft.parts(),
        close_open(draft, 99.0).parts(),
        draft.first_token_at,
        draft.retrying,
        draft.usage,
        draft.finish_reason,
        draft.call_count,
    )


def test_folding_gives_the_draft_folding_each_event_gives_however_often_it_is_read():
    times = [1.0 + 0.25 * i for i in range(len(MIXED))]
    expected = [facts(run(MIXED[: n + 1], times)) for n in range(len(MIXED))]
    for read_every in (1, 2, 3, len(MIXED)):
        folding = Folding(Draft())
        for n, event in enumerate(MIXED):
            folding.add(event, times[n])
            if (n + 1) % read_every == 0 or n == len(MIXED) - 1:
                assert facts(folding.draft) == expected[n], (read_every, n)


def test_folding_holds_a_run_of_deltas_as_one_chunk():
    folding = Folding(Draft())
    for n in range(1000):
        folding.add(TextDelta("x"), float(n))
    draft = folding.draft
    assert draft.parts() == [TextPart("x" * 1000)]
    assert draft.first_token_at == 0.0 and draft.open_since == 0.0
    assert draft.open_chunks == ("x" * 1000, None)


def test_a_run_of_empty_deltas_after_a_retry_clears_it_and_adds_nothing():
    folding = Folding(run([Retrying("Rate limited", 1.0, attempt=2, max_attempts=3)]))
    folding.add(TextDelta(""), 5.0)
    assert folding.draft.retrying is None
    assert folding.draft.parts() == [] and folding.draft.first_token_at is None
