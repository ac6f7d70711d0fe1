"""Full-text search on a real SQLite file: matching, ordering, snippets, index upkeep."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import count

import pytest
from sqlalchemy import text

from desktop.core.models import (
    Conversation,
    Message,
    MessageStatus,
    ReasoningPart,
    Role,
    TextPart,
    new_id,
)
from desktop.core.search import SearchHit
from desktop.storage import search as search_module
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.search import (
    make_snippet,
    parse_terms,
    rebuild_search_index,
    search,
    search_index_is_consistent,
)
from desktop.storage.transfer import import_conversation

_BASE = datetime(2024, 5, 1, tzinfo=UTC)
_tick = count(1)


def _say(
    repo: ChatRepository,
    conversation_id: str,
    text_: str,
    parent: Message | None = None,
    *,
    reasoning: str = "",
    status: MessageStatus = MessageStatus.COMPLETE,
) -> Message:
    parts = [ReasoningPart(reasoning, 10)] if reasoning else []
    return repo.add_message(
        Message(
            id=new_id(),
            conversation_id=conversation_id,
            parent_id=parent.id if parent else None,
            role=Role.USER if parent is None else Role.ASSISTANT,
            parts=[*parts, TextPart(text_)],
            status=status,
            created_at=_BASE + timedelta(seconds=next(_tick)),
        )
    )


def _ids(hits: list[SearchHit]) -> list[str | None]:
    return [h.message_id for h in hits]


def _marked(hit: SearchHit) -> list[str]:
    return [hit.snippet[start:end] for start, end in hit.highlights]


def _index_rowids(db: Database, term: str) -> list[int]:
    """What the FTS index itself holds (stale rows would show up here)."""
    with db.read() as conn:
        rows = conn.execute(
            text("SELECT rowid FROM messages_fts WHERE messages_fts MATCH :q"), {"q": f'"{term}"'}
        )
        return [r[0] for r in rows]


# --- matching -----------------------------------------------------------------------


def test_cjk_text_is_found_by_a_two_and_a_three_character_substring(
    repo: ChatRepository, db: Database
) -> None:
    chat = repo.create_conversation("Greetings")
    hello = _say(repo, chat.id, "你好世界")
    _say(repo, chat.id, "今天天气很好", hello)

    for query in ("世界", "好世界", "你好世界"):
        hits = search(db, query)
        assert _ids(hits) == [hello.id], query
        assert hits[0].snippet == "你好世界"
        assert _marked(hits[0]) == [query]


def test_matching_ignores_case_including_non_ascii_letters(
    repo: ChatRepository, db: Database
) -> None:
    chat = repo.create_conversation("Databases")
    message = _say(repo, chat.id, "We moved from MySQL to PostgreSQL in München.")
    for query in ("postgresql", "POSTGRES", "greSQ", "MÜNCHEN", "münchen"):
        hits = search(db, query)
        assert _ids(hits) == [message.id], query
    assert _marked(search(db, "MÜNCHEN")[0]) == ["München"]


def test_accents_are_matched_exactly_but_case_insensitively(
    repo: ChatRepository, db: Database
) -> None:
    chat = repo.create_conversation("Menu")
    message = _say(repo, chat.id, "Un café au lait, s'il vous plaît")
    assert _ids(search(db, "café")) == [message.id]
    assert _ids(search(db, "CAFÉ")) == [message.id]
    assert _ids(search(db, "plaît")) == [message.id]
    # SQLite 3.40's trigram tokenizer cannot fold diacritics (see search.py).
    assert search(db, "cafe") == []


def test_two_and_one_character_queries_find_words(repo: ChatRepository, db: Database) -> None:
    chat = repo.create_conversation("Languages")
    go = _say(repo, chat.id, "I write Go every day")
    _say(repo, chat.id, "Rust and Zig", go)
    assert _ids(search(db, "go")) == [go.id]
    assert _marked(search(db, "GO")[0]) == ["Go"]
    assert _ids(search(db, "Z")) != []


def test_every_term_must_occur_and_quotes_make_a_phrase(repo: ChatRepository, db: Database) -> None:
    chat = repo.create_conversation("Notes")
    both = _say(repo, chat.id, "async code in python is pleasant")
    only_one = _say(repo, chat.id, "python only", both)
    phrase = _say(repo, chat.id, "python async, together", only_one)

    assert set(_ids(search(db, "python async"))) == {both.id, phrase.id}
    assert _ids(search(db, '"python async"')) == [phrase.id]
    # A short term narrows the long ones' matches.
    assert _ids(search(db, "python is")) == [both.id]
    hit = search(db, '"python async"')[0]
    assert _marked(hit) == ["python async"]


def test_reasoning_is_not_searchable(repo: ChatRepository, db: Database) -> None:
    chat = repo.create_conversation("Thoughts")
    _say(repo, chat.id, "The answer is 42.", reasoning="secret chain of thought")
    assert search(db, "secret") == []
    assert len(search(db, "answer")) == 1


@pytest.mark.parametrize(
    "query",
    [
        '"',
        '""',
        '"""',
        "*",
        "AND",
        "OR NOT",
        "NEAR(",
        "NEAR(a b, 2)",
        'a" OR "b',
        "col:umn",
        "^start",
        "- minus",
        "+plus",
        "(((",
        "'; DROP TABLE messages; --",
        "%",
        "_",
        "\\",
        "100%_done\\",
        "\x00",
        "a" * 5000,
    ],
)
def test_hostile_input_never_raises_and_is_taken_literally(
    repo: ChatRepository, db: Database, query: str
) -> None:
    chat = repo.create_conversation("Plain title")
    _say(repo, chat.id, "nothing special here")
    assert search(db, query) == []


def test_operators_and_wildcards_are_searched_as_text(repo: ChatRepository, db: Database) -> None:
    chat = repo.create_conversation("Symbols")
    percent = _say(repo, chat.id, 'progress: 100% done, say "NEAR(" AND *stars*')
    _say(repo, chat.id, "one hundred", percent)
    assert _ids(search(db, "%")) == [percent.id]
    assert _ids(search(db, "100%")) == [percent.id]
    assert _ids(search(db, '"NEAR("')) == [percent.id]
    assert _ids(search(db, "*stars*")) == [percent.id]
    assert _ids(search(db, 'say "')) == [percent.id]


def test_empty_and_blank_queries_return_nothing(repo: ChatRepository, db: Database) -> None:
    chat = repo.create_conversation("anything")
    _say(repo, chat.id, "anything at all")
    assert search(db, "") == []
    assert search(db, "   \t\n ") == []
    assert search(db, '" "') == []
    assert search(db, "anything", limit=0) == []


# --- results ------------------------------------------------------------------------


def test_titles_come_first_then_messages_newest_conversation_first(
    repo: ChatRepository, db: Database
) -> None:
    older = repo.create_conversation("Kubernetes notes")
    older_message = _say(repo, older.id, "kubernetes pods restart")
    newer = repo.create_conversation("Cooking")
    first = _say(repo, newer.id, "kubernetes for the kitchen?")
    second = _say(repo, newer.id, "more kubernetes, twice: kubernetes", first)

    hits = search(db, "kubernetes")

    assert [(h.conversation_id, h.message_id) for h in hits] == [
        (older.id, None),
        (newer.id, first.id),  # newest conversation first, its hits in reading order
        (newer.id, second.id),
        (older.id, older_message.id),
    ]
    title_hit = hits[0]
    assert title_hit.conversation_title == "Kubernetes notes"
    assert title_hit.snippet == "Kubernetes notes"
    assert title_hit.highlights == ((0, 10),)
    assert _marked(hits[2]) == ["kubernetes", "kubernetes"]  # one hit per message
    stored = repo.get_conversation(newer.id)
    assert stored is not None and hits[1].updated_at == stored.updated_at


def test_archived_conversations_are_left_out(repo: ChatRepository, db: Database) -> None:
    kept = repo.create_conversation("Archive me not: zebra")
    _say(repo, kept.id, "zebra crossing")
    archived = repo.create_conversation("Old zebra")
    _say(repo, archived.id, "zebra stripes")
    with db.write() as conn:
        conn.execute(
            text("UPDATE conversations SET archived = 1 WHERE id = :id"), {"id": archived.id}
        )

    for query in ("zebra", "ze"):
        assert {h.conversation_id for h in search(db, query)} == {kept.id}, query


def test_the_limit_counts_titles_and_messages_together(repo: ChatRepository, db: Database) -> None:
    for n in range(4):
        chat = repo.create_conversation(f"llama {n}")
        _say(repo, chat.id, "llama facts")
    assert len(search(db, "llama")) == 8
    hits = search(db, "llama", limit=5)
    assert [h.message_id is None for h in hits] == [True] * 4 + [False]
    assert len(search(db, "ll", limit=3)) == 3


def test_both_query_plans_return_the_same_hits(
    repo: ChatRepository, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bounded count chooses between two SQL plans; they must agree exactly."""
    for n in range(6):
        chat = repo.create_conversation(f"chat {n}")
        parent = _say(repo, chat.id, f"shared word number {n}")
        _say(repo, chat.id, "shared again; and some 世界 text", parent)
    _say(repo, repo.create_conversation("other").id, "unrelated")

    for query in ("shared", "shared 世界", "again shared", "number 3"):
        direct = search(db, query)
        monkeypatch.setattr(search_module, "DIRECT_PLAN_MAX", 0)
        walked = search(db, query)
        monkeypatch.undo()
        assert walked == direct and direct, query


def test_a_long_message_gets_a_short_snippet_around_the_first_match(
    repo: ChatRepository, db: Database
) -> None:
    chat = repo.create_conversation("Essay")
    words = [f"word{i}" for i in range(200)]
    words[100] = "NEEDLE"
    _say(repo, chat.id, " ".join(words))

    (hit,) = search(db, "needle")
    assert hit.snippet == (
        "…word96 word97 word98 word99 NEEDLE"
        " word101 word102 word103 word104 word105 word106 word107…"
    )
    assert _marked(hit) == ["NEEDLE"]


# --- snippets (pure) ----------------------------------------------------------------


def test_snippet_keeps_whole_words_and_marks_cuts() -> None:
    body = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
    snippet, highlights = make_snippet(body, ("seven",))
    assert snippet == "…three four five six seven eight nine ten eleven twelve thirteen fourteen"
    assert [snippet[a:b] for a, b in highlights] == ["seven"]


def test_snippet_cuts_text_without_spaces_by_characters() -> None:
    body = "中" * 100 + "世界" + "文" * 100
    snippet, highlights = make_snippet(body, ("世界",))
    assert snippet.startswith("…") and snippet.endswith("…")
    assert len(snippet) < 100
    assert [snippet[a:b] for a, b in highlights] == ["世界"]


def test_snippet_collapses_line_breaks_and_merges_overlapping_highlights() -> None:
    snippet, highlights = make_snippet("first line\n\n  second\tline", ("line", "ine", "sec"))
    assert snippet == "first line second line"
    assert [snippet[a:b] for a, b in highlights] == ["line", "sec", "line"]


def test_parse_terms_splits_on_space_keeps_quoted_phrases_and_drops_duplicates() -> None:
    assert parse_terms('  Rust "borrow checker"  rust  ') == ("Rust", "borrow checker")
    assert parse_terms('say "') == ("say", '"')
    assert len(parse_terms(" ".join(f"t{i}" for i in range(50)))) == search_module.MAX_TERMS


# --- keeping the index current -------------------------------------------------------


def test_saved_text_replaces_the_indexed_text(repo: ChatRepository, db: Database) -> None:
    chat = repo.create_conversation("Streaming")
    question = _say(repo, chat.id, "question")
    answer = _say(repo, chat.id, "partial answ", question, status=MessageStatus.STREAMING)
    assert _ids(search(db, "partial")) == [answer.id]  # indexed while streaming

    answer.parts = [TextPart("complete reply about otters")]
    answer.status = MessageStatus.COMPLETE
    repo.save_message(answer)

    assert search(db, "partial") == []
    assert _ids(search(db, "otters")) == [answer.id]
    assert search_index_is_consistent(db)


def test_a_streaming_answer_is_indexed_when_it_ends_or_a_crash_interrupts_it(
    repo: ChatRepository, db: Database
) -> None:
    """Saving a streaming answer twice a second must not re-index its whole text each
    time (seconds per save for a long answer): it is indexed once it stops."""
    chat = repo.create_conversation("Streaming")
    question = _say(repo, chat.id, "question")
    answer = _say(repo, chat.id, "", question, status=MessageStatus.STREAMING)
    answer.parts = [TextPart("a growing reply about beavers")]
    repo.save_message(answer)
    assert repo.get_message(answer.id).text == "a growing reply about beavers"  # saved
    assert search(db, "beavers") == []  # not indexed yet

    assert repo.interrupt_streaming() == [answer.id]  # the next start, after a crash
    assert repo.get_message(answer.id).status is MessageStatus.INTERRUPTED
    assert _ids(search(db, "beavers")) == [answer.id]
    assert search_index_is_consistent(db)


def test_renaming_a_conversation_reindexes_its_title(repo: ChatRepository, db: Database) -> None:
    chat = repo.create_conversation("Before rename")
    repo.rename_conversation(chat.id, "After rename")
    assert search(db, "before") == []
    assert [h.conversation_id for h in search(db, "after")] == [chat.id]
    assert search_index_is_consistent(db)


def test_deleting_a_conversation_cascades_into_the_index(
    repo: ChatRepository, db: Database
) -> None:
    """Triggers fire for rows removed by ON DELETE CASCADE without recursive_triggers."""
    with db.read() as conn:
        assert conn.exec_driver_sql("PRAGMA recursive_triggers").scalar_one() == 0
    gone = repo.create_conversation("platypus chat")
    root = _say(repo, gone.id, "platypus one")
    child = _say(repo, gone.id, "platypus two", root)
    _say(repo, gone.id, "platypus three", child)
    kept = repo.create_conversation("other")
    survivor = _say(repo, kept.id, "platypus elsewhere")
    assert len(_index_rowids(db, "platypus")) == 4

    repo.delete_conversation(gone.id)

    assert _ids(search(db, "platypus")) == [survivor.id]
    assert len(_index_rowids(db, "platypus")) == 1
    assert search_index_is_consistent(db)


def test_deleting_a_subtree_cascades_into_the_index(repo: ChatRepository, db: Database) -> None:
    chat = repo.create_conversation("Tree")
    root = _say(repo, chat.id, "wombat root")
    child = _say(repo, chat.id, "wombat child", root)
    _say(repo, chat.id, "wombat grandchild", child)
    with db.write() as conn:
        conn.execute(text("DELETE FROM messages WHERE id = :id"), {"id": child.id})
    assert _ids(search(db, "wombat")) == [root.id]
    assert len(_index_rowids(db, "wombat")) == 1
    assert search_index_is_consistent(db)


def test_the_repository_deletes_keep_the_index_consistent(
    repo: ChatRepository, db: Database
) -> None:
    """delete_message detaches a subtree and deletes it; a long chain goes at once."""
    chat = repo.create_conversation("versions")
    root = _say(repo, chat.id, "ibis root")
    kept = _say(repo, chat.id, "ibis kept", root)
    doomed = _say(repo, chat.id, "ibis doomed", root)
    _say(repo, chat.id, "ibis below doomed", doomed)
    repo.delete_message(doomed.id)
    assert _ids(search(db, "ibis")) == [root.id, kept.id]
    assert search_index_is_consistent(db)

    long_chat = Conversation(id="long", title="long", created_at=_BASE, updated_at=_BASE)
    chain: list[Message] = []
    for n in range(1200):  # deeper than SQLite's 1,000 trigger levels
        chain.append(
            Message(
                id=f"n{n}",
                conversation_id="long",
                parent_id=chain[-1].id if chain else None,
                role=Role.USER,
                parts=[TextPart(f"heron {n}")],
                created_at=_BASE + timedelta(milliseconds=n),
            )
        )
    import_conversation(db, long_chat, chain)
    assert len(_index_rowids(db, "heron")) == 1200
    repo.delete_conversation("long")
    assert _index_rowids(db, "heron") == []
    assert search_index_is_consistent(db)


def test_vacuum_keeps_the_index_aligned_with_the_rows(repo: ChatRepository, db: Database) -> None:
    chats = [repo.create_conversation(f"chat {n}") for n in range(30)]
    for chat in chats:
        _say(repo, chat.id, f"gecko number {chat.title}")
    for chat in chats[::3]:
        repo.delete_conversation(chat.id)  # holes in the rowid sequence
    raw = db.engine.raw_connection()  # VACUUM cannot run inside a transaction
    try:
        assert raw.driver_connection is not None
        raw.driver_connection.execute("VACUUM")
    finally:
        raw.close()
    assert search_index_is_consistent(db)
    hits = search(db, "gecko")
    assert len(hits) == 20
    assert all(h.snippet == f"gecko number {h.conversation_title}" for h in hits)


def test_an_inconsistent_index_is_detected_and_rebuilt(repo: ChatRepository, db: Database) -> None:
    chat = repo.create_conversation("repairs")
    message = _say(repo, chat.id, "quokka")
    with db.write() as conn:  # simulate damage: drop the message from the index only
        conn.execute(
            text(
                "INSERT INTO messages_fts (messages_fts, rowid, search_text)"
                " SELECT 'delete', rowid, search_text FROM messages WHERE id = :id"
            ),
            {"id": message.id},
        )
    assert search(db, "quokka") == []
    assert not search_index_is_consistent(db)

    rebuild_search_index(db)

    assert search_index_is_consistent(db)
    assert _ids(search(db, "quokka")) == [message.id]


# --- one and two characters (the short-query index) --------------------------------


def test_short_latin_terms_match_the_start_of_words(repo: ChatRepository, db: Database) -> None:
    chat = repo.create_conversation("Languages")
    going = _say(repo, chat.id, "Going home; the cargo left a week ago")
    go = _say(repo, chat.id, "I write Go (go!) every day", going)
    _say(repo, chat.id, "Django and Cargo, nothing else", go)

    assert _ids(search(db, "go")) == [going.id, go.id]
    assert _marked(search(db, "go")[0]) == ["Go"]  # not the "go" in "cargo" or "ago"
    assert _marked(search(db, "GO")[1]) == ["Go", "go"]
    assert _ids(search(db, "G")) == [going.id, go.id]
    assert search(db, "rg") == []  # inside "cargo" only
    assert _ids(search(db, "wr")) == [go.id]


def test_a_two_character_cjk_word_is_found_inside_a_sentence(
    repo: ChatRepository, db: Database
) -> None:
    chat = repo.create_conversation("Schools")
    school = _say(repo, chat.id, "我们的学校很大，有三个操场。")
    korean = _say(repo, chat.id, "우리학교에서 만나요", school)
    kana = _say(repo, chat.id, "東京のラーメンはおいしい", korean)
    _say(repo, chat.id, "学习和学生", kana)  # 学 and 校, never 学校

    for query, message in (("学校", school), ("학교", korean), ("ラー", kana), ("京の", kana)):
        hits = search(db, query)
        assert _ids(hits) == [message.id], query
        assert _marked(hits[0]) == [query]
    assert search(db, "校学") == []


def test_one_character_queries(repo: ChatRepository, db: Database) -> None:
    chat = repo.create_conversation("Pets")
    cat = _say(repo, chat.id, "我的猫很可爱")
    zebra = _say(repo, chat.id, "A zebra, then Zanzibar", cat)
    _say(repo, chat.id, "lazy jazz", zebra)

    assert _ids(search(db, "猫")) == [cat.id]
    assert _ids(search(db, "z")) == [zebra.id]  # words starting with z, not "lazy"
    assert _marked(search(db, "Z")[0]) == ["z", "Z"]
    assert search(db, "狗") == []


def test_punctuation_and_symbols_match_as_text(repo: ChatRepository, db: Database) -> None:
    chat = repo.create_conversation("Symbols")
    percent = _say(repo, chat.id, "Growth was 12% in C# code -> fine?")
    emoji = _say(repo, chat.id, "Party 🎉 and ❤️ for all, (c) 2024", percent)
    plain = _say(repo, chat.id, "no symbols here at all", emoji)

    assert _ids(search(db, "%")) == [percent.id]
    assert _ids(search(db, "c#")) == [percent.id]
    assert _marked(search(db, "c#")[0]) == ["C#"]
    assert _ids(search(db, "->")) == [percent.id]
    assert _ids(search(db, "?")) == [percent.id]
    assert _ids(search(db, "🎉")) == [emoji.id]
    assert _ids(search(db, "❤️")) == [emoji.id]
    assert _ids(search(db, "(c")) == [emoji.id]
    assert _ids(search(db, "c)")) == [emoji.id]
    assert search(db, "$") == [] and search(db, "#!") == []
    # A symbol term with a word term: both must occur.
    assert _ids(search(db, "% growth")) == [percent.id]
    assert _ids(search(db, "no")) == [plain.id]


def test_a_short_query_can_match_only_a_title(repo: ChatRepository, db: Database) -> None:
    trip = repo.create_conversation("Go tips for 周末计划")
    _say(repo, trip.id, "Pack light and leave early")
    other = repo.create_conversation("Groceries")
    _say(repo, other.id, "Buy apples")

    for query, marked in (("go", ["Go"]), ("周末", ["周末"]), ("ti", ["ti"])):
        hits = search(db, query)
        assert [(h.conversation_id, h.message_id) for h in hits] == [(trip.id, None)], query
        assert _marked(hits[0]) == marked
    assert search(db, "ps") == []  # inside "tips" only


def test_short_queries_list_newest_conversations_first_with_either_plan(
    repo: ChatRepository, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    chats = [repo.create_conversation(f"chat {n}") for n in range(4)]
    expected = []
    for chat in chats:
        first = _say(repo, chat.id, "ok 好的 100%")
        expected.append([first.id, _say(repo, chat.id, "ok again 好的 50%", first).id])
    order = [i for pair in reversed(expected) for i in pair]

    for query in ("ok", "好的", "%", "ok %", "again ok", "o"):
        direct = search(db, query)
        monkeypatch.setattr(search_module, "DIRECT_PLAN_MAX", 0)
        walked = search(db, query)
        monkeypatch.undo()
        assert walked == direct, query
        wanted = order if query not in ("again ok",) else order[1::2]
        assert _ids(direct) == wanted, query


def test_the_short_index_follows_edits_renames_and_deletes(
    repo: ChatRepository, db: Database
) -> None:
    chat = repo.create_conversation("Draft 草稿")
    question = _say(repo, chat.id, "question")
    answer = _say(repo, chat.id, "partial 部分", question, status=MessageStatus.STREAMING)
    assert _ids(search(db, "部分")) == [answer.id]

    answer.parts = [TextPart("final 结果 with a % sign")]
    answer.status = MessageStatus.COMPLETE
    repo.save_message(answer)
    assert search(db, "部分") == [] and search(db, "pa") == []
    assert _ids(search(db, "结果")) == [answer.id]
    assert _ids(search(db, "%")) == [answer.id]

    repo.rename_conversation(chat.id, "Final 定稿")
    assert search(db, "草稿") == [] and search(db, "dr") == []
    assert [h.message_id for h in search(db, "定稿")] == [None]
    assert search_index_is_consistent(db)

    repo.delete_message(answer.id)
    assert search(db, "结果") == [] and search(db, "%") == []
    repo.delete_conversation(chat.id)
    assert search(db, "定稿") == [] and search(db, "qu") == []
    assert search_index_is_consistent(db)


def test_damage_to_the_short_index_is_detected_and_rebuilt(
    repo: ChatRepository, db: Database
) -> None:
    chat = repo.create_conversation("repairs")
    message = _say(repo, chat.id, "鸭嘴兽 platypus")
    with db.write() as conn:  # drop the message from the short-query index only
        conn.execute(
            text(
                "INSERT INTO messages_short_fts (messages_short_fts, rowid, terms)"
                " SELECT 'delete', rowid, terms FROM messages_short_fts_source"
                " WHERE rowid = (SELECT rowid FROM messages WHERE id = :id)"
            ),
            {"id": message.id},
        )
    assert search(db, "鸭嘴") == []
    assert _ids(search(db, "platypus")) == [message.id]  # the trigram index is intact
    assert not search_index_is_consistent(db)

    rebuild_search_index(db)

    assert search_index_is_consistent(db)
    assert _ids(search(db, "鸭嘴")) == [message.id]


def test_a_term_the_short_index_cannot_hold_is_scanned_for(
    repo: ChatRepository, db: Database
) -> None:
    chat = repo.create_conversation("Control")
    odd = _say(repo, chat.id, "bell\x07here")
    _say(repo, chat.id, "no bell", odd)
    assert _ids(search(db, "\x07h")) == [odd.id]


_MIXED_TEXTS = (
    "Hello, World! snake_case e-mail (parens) [x] {y} a/b a.b 3.14 100% C# F# C++ ->",
    "Ωmega Straße ЖУК жук naïve nai\u0308ve café ÉCOLE 12abc abc12",
    "你好世界。东京の天气は？ 우리학교에서 만나요 カタカナ ﾊﾝｶｸ ＡＢＣ",
    "emoji 🎉🎉 ❤️ 👍🏽 flags 🇫🇷 tabs\tand\nnewlines\u00a0nbsp \u200bzero-width",
    "quotes «guillemets» “curly” ‘single’ — dashes – … ellipsis · dots ©®™ €£¥ ½ ² °C",
)


def test_the_short_index_agrees_with_the_definition_of_a_match(
    repo: ChatRepository, db: Database
) -> None:
    """Every 1-2 character string of these texts: the index finds exactly the texts the
    highlighter marks (a substring, or for letters and digits a word start)."""
    chat = repo.create_conversation("mixed")
    ids = {}
    parent = None
    for body in _MIXED_TEXTS:
        parent = _say(repo, chat.id, body, parent)
        ids[parent.id] = body
    substrings = {
        body[i : i + n] for body in _MIXED_TEXTS for n in (1, 2) for i in range(len(body))
    }
    queries = sorted(q for q in substrings if parse_terms(q) == (q,))  # one term, as typed
    assert len(queries) > 250
    for query in queries:
        found = {h.message_id for h in search(db, query, limit=100) if h.message_id}
        marked = {i for i, body in ids.items() if make_snippet(body, (query,))[1]}
        assert found == marked, query


def test_a_message_snippet_reads_as_text_not_markdown_source(repo: ChatRepository, db: Database):
    chat = repo.create_conversation("Trip")
    question = _say(repo, chat.id, "Where?")
    _say(
        repo,
        chat.id,
        "## Plan\n\nTake the **tram 28** to [Alfama](https://example.com/alfama) and `walk`.\n"
        + "filler words here " * 400
        + "\n- **tram 28** again",
        question,
    )
    (hit,) = search(db, "tram")
    assert "**" not in hit.snippet and "](" not in hit.snippet and "##" not in hit.snippet
    assert "tram 28" in hit.snippet and "Alfama" in hit.snippet
    assert hit.snippet.endswith("…")  # the message goes on past the window
    assert _marked(hit) and all(m.lower() == "tram" for m in _marked(hit))
    # A title is shown as written.
    titled = repo.create_conversation("C# **tips**")
    _say(repo, titled.id, "nothing")
    assert any(h.snippet == "C# **tips**" for h in search(db, "tips"))
