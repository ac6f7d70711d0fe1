from desktop.core.events import Finished, ReasoningDelta, TextDelta, UsageReport
from desktop.core.models import ReasoningPart, TextPart, Usage
from desktop.engine.stream_fold import Draft, close_open, fold


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
