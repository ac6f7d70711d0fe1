"""Every rule of the rolling-context planner, on hand-built branches."""

from __future__ import annotations

from desktop.core.models import Message, Role, RollingSummary, TextPart, ToolCallPart
from desktop.engine.context.planner import PlanReason, plan
from desktop.engine.context.tokens import MESSAGE_OVERHEAD

THRESHOLD = 10_000  # the recent window then targets 5,500 tokens


def msg(index: int, tokens: int = 550, *, role: Role | None = None, tag: str = "m") -> Message:
    """A message costing exactly `tokens`; even indexes are the person's."""
    if role is None:
        role = Role.USER if index % 2 == 0 else Role.ASSISTANT
    text = "a" * 4 * (tokens - MESSAGE_OVERHEAD)
    return Message(f"{tag}{index}", "c", None, role, [TextPart(text)])


def chat(count: int = 20, tokens: int = 550) -> list[Message]:
    return [msg(i, tokens) for i in range(count)]


def ids(messages) -> tuple[str, ...]:
    return tuple(m.id for m in messages)


def test_a_branch_under_the_threshold_is_sent_whole_without_summary():
    path = chat(18)  # 9,900 tokens
    result = plan(path, None, threshold=THRESHOLD)
    assert result.reason is PlanReason.FITS
    assert ids(result.window) == ids(path)
    assert result.summary is None and result.refresh is None


def test_fewer_than_four_messages_are_never_summarised_even_over_the_threshold():
    path = chat(3, tokens=20_000)
    result = plan(path, None, threshold=THRESHOLD)
    assert result.reason is PlanReason.TOO_FEW
    assert ids(result.window) == ids(path) and result.refresh is None


def test_the_recent_window_targets_55_percent_and_the_summary_covers_the_rest():
    path = chat(20)  # 11,000 tokens; ten newest messages are exactly 5,500
    result = plan(path, None, threshold=THRESHOLD)
    assert result.reason is PlanReason.REBUILD
    assert ids(result.window) == ids(path[10:])
    assert result.summary is None
    assert result.refresh is not None
    assert result.refresh.previous is None
    assert ids(result.refresh.messages) == ids(path[:10])
    assert result.refresh.covered_ids == ids(path[:10])


def test_the_window_keeps_at_least_four_messages_however_large():
    path = chat(8, tokens=20_000)
    result = plan(path, None, threshold=32_000)
    assert ids(result.window) == ids(path[4:])
    assert result.refresh is not None and result.refresh.covered_ids == ids(path[:4])


def test_the_window_start_moves_back_to_a_user_message():
    path = chat(20)
    path[10] = msg(10, tokens=1_000)  # now only nine messages fit: the start is an answer
    result = plan(path, None, threshold=THRESHOLD)
    assert result.window[0].id == "m10" and result.window[0].role is Role.USER
    assert result.refresh is not None and result.refresh.covered_ids == ids(path[:10])


def test_a_tool_result_never_loses_the_turn_that_called_it():
    path = chat(20)
    call = ToolCallPart("call_1", "read_file", '{"path": "notes.md"}', result="b" * 400)
    path[11] = Message("m11", "c", None, Role.ASSISTANT, [TextPart("Reading."), call])
    path[10] = msg(10, tokens=1_000)
    result = plan(path, None, threshold=THRESHOLD)
    window = ids(result.window)
    assert "m11" in window and window[0] == "m10"  # the question and its tool answer
    assert result.refresh is not None and "m11" not in result.refresh.covered_ids


def test_a_valid_summary_is_reused_without_refreshing():
    path = chat(20)
    stored = RollingSummary("Earlier: budget is 40k.", ids(path[:10]))
    result = plan(path, stored, threshold=THRESHOLD)
    assert result.reason is PlanReason.REUSED
    assert result.summary == stored and result.refresh is None
    assert ids(result.window) == ids(path[10:])


def test_an_edit_invalidates_the_summary_and_it_is_rebuilt_from_scratch():
    path = chat(20)
    stored = RollingSummary("old", ids(path[:10]))
    edited = [*path]
    edited[4] = msg(4, tag="edit")  # a sibling version replaces a covered message
    result = plan(edited, stored, threshold=THRESHOLD)
    assert result.reason is PlanReason.REBUILD and result.summary is None
    assert result.refresh is not None and result.refresh.previous is None
    assert result.refresh.covered_ids == ids(edited[:10])


def test_a_delete_invalidates_the_summary():
    path = chat(20)
    stored = RollingSummary("old", ids(path[:10]))
    after_delete = path[:3] + [msg(i, tag="new") for i in range(3, 20)]
    result = plan(after_delete, stored, threshold=THRESHOLD)
    assert result.reason is PlanReason.REBUILD
    assert result.refresh is not None and result.refresh.previous is None


def test_a_branch_switch_invalidates_the_summary():
    path = chat(20)
    stored = RollingSummary("old", ids(path[:10]))
    other_branch = path[:2] + [msg(i, tag="b") for i in range(2, 20)]
    result = plan(other_branch, stored, threshold=THRESHOLD)
    assert result.reason is PlanReason.REBUILD and result.summary is None
    assert result.refresh is not None and result.refresh.covered_ids == ids(other_branch[:10])


def test_a_summary_covering_more_than_the_prefix_of_another_branch_is_invalid():
    path = chat(20)
    stored = RollingSummary("old", (*ids(path[:10]), "gone"))
    assert plan(path, stored, threshold=THRESHOLD).reason is PlanReason.REBUILD


def test_when_the_window_moves_on_the_refresh_merges_the_old_summary():
    path = chat(20)
    stored = RollingSummary("Earlier: budget is 40k.", ids(path[:6]))
    result = plan(path, stored, threshold=THRESHOLD)
    assert result.reason is PlanReason.MERGE
    assert result.refresh is not None
    assert result.refresh.previous == "Earlier: budget is 40k."
    assert ids(result.refresh.messages) == ids(path[6:10])
    assert result.refresh.covered_ids == ids(path[:10])


def test_pinned_messages_before_the_window_are_sent_in_full_and_not_summarised():
    path = chat(20)
    result = plan(path, None, threshold=THRESHOLD, pinned={"m2", "m5", "m15"})
    assert ids(result.window) == ("m2", "m5", *ids(path[10:]))
    assert result.refresh is not None
    assert "m2" not in result.refresh.covered_ids and "m5" not in result.refresh.covered_ids
    assert ids(result.refresh.messages) == result.refresh.covered_ids


def test_a_summary_that_left_pinned_messages_out_stays_valid():
    path = chat(20)
    covered = tuple(i for i in ids(path[:10]) if i != "m2")
    result = plan(path, RollingSummary("s", covered), threshold=THRESHOLD, pinned={"m2"})
    assert result.reason is PlanReason.REUSED
    assert ids(result.window) == ("m2", *ids(path[10:]))


def test_unpinning_a_message_the_summary_left_out_invalidates_it():
    path = chat(20)
    covered = tuple(i for i in ids(path[:10]) if i != "m2")
    result = plan(path, RollingSummary("s", covered), threshold=THRESHOLD)
    assert result.reason is PlanReason.REBUILD


def test_pinning_a_covered_message_keeps_the_summary_and_sends_it_in_full():
    path = chat(20)
    stored = RollingSummary("s", ids(path[:10]))
    result = plan(path, stored, threshold=THRESHOLD, pinned={"m3"})
    assert result.reason is PlanReason.REUSED and result.summary == stored
    assert ids(result.window) == ("m3", *ids(path[10:]))


def test_compress_now_keeps_only_the_minimum_window_even_under_the_threshold():
    path = chat(10, tokens=100)
    result = plan(path, None, threshold=THRESHOLD, force=True)
    assert ids(result.window) == ids(path[6:])
    assert result.refresh is not None and result.refresh.covered_ids == ids(path[:6])


def test_a_compressed_summary_is_kept_while_the_chat_stays_under_the_threshold():
    path = chat(12, tokens=100)
    stored = RollingSummary("s", ids(path[:6]))
    result = plan(path, stored, threshold=THRESHOLD)
    assert result.reason is PlanReason.REUSED and result.summary == stored
    assert ids(result.window) == ids(path[6:])
