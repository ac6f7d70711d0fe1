"""The text behind the short-query index: frozen output, fixed character classes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from desktop.storage.database import Database
from desktop.storage.short_index import (
    MARK,
    index_text,
    is_word_query,
    query_token,
    register_sql_functions,
    starts_word,
)


def _grams(indexed: str) -> set[str]:
    return {token[1:] for token in indexed.split(" ") if token.startswith(MARK)}


def _words(indexed: str) -> list[str]:
    return [token for token in indexed.split(" ") if token and not token.startswith(MARK)]


def test_the_output_is_frozen() -> None:
    """Triggers delete old entries by recomputing this: it must never change (a change
    needs a migration step that rebuilds the index under a new function name)."""
    grams = [
        "!", "#", "'", "'t", ",", "-", "->", ":", ">", "C#", "c:", "n'", "❤", "❤\ufe0f",
        "世", "世界", "你", "你好", "好", "好世", "界", "界,", "\ufe0f", "\ufe0f!",
    ]  # fmt: skip
    expected = "Don t panic C " + " ".join("\ue000" + gram for gram in grams)
    assert index_text("Don't panic: 你好世界, C# -> ❤\ufe0f!") == expected


def test_words_split_at_spaces_punctuation_and_cjk() -> None:
    indexed = index_text("snake_case e-mail naïve Ωmega\u00a0ж日本x")
    assert _words(indexed) == ["snake", "case", "e", "mail", "naïve", "Ωmega", "ж", "x"]
    assert {"_", "e_", "_c", "-", "e-", "-m", "日", "本", "日本", "ж日", "本x"} == _grams(indexed)


def test_character_classes_do_not_depend_on_the_pythons_unicode_version() -> None:
    # U+31350 is a CJK ideograph from Unicode 15, unassigned in older Pythons' tables;
    # U+E000 (private use) is never a letter. Both are grams by their fixed ranges.
    assert _grams(index_text("\U00031350\ue000")) == {"\U00031350", "\ue000", "\U00031350\ue000"}
    assert _words(index_text("\U00031350 a")) == ["a"]


@pytest.mark.parametrize("value", [None, b"bytes", 42, 1.5, ""])
def test_anything_but_text_indexes_as_nothing(value: object) -> None:
    assert index_text(value) == ""


def test_query_tokens() -> None:
    assert (query_token("go"), is_word_query("go")) == ("go", True)
    assert (query_token("Ж"), is_word_query("Ж")) == ("Ж", True)
    assert (query_token("世界"), is_word_query("世界")) == (MARK + "世界", False)
    assert (query_token("C#"), is_word_query("C#")) == (MARK + "C#", False)
    assert query_token("\x07a") is None and not is_word_query("\x07a")


def test_word_starts_follow_the_index() -> None:
    text = "ago go (go) 世go a_go 1go"
    starts = [i for i in range(len(text)) if text.startswith("go", i) and starts_word(text, i)]
    assert [text[i - 1] if i else "" for i in starts] == [" ", "(", "世", "_"]


def test_the_schema_may_call_the_function_when_trusted_schema_is_off(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "plain.db")
    try:
        conn.execute("PRAGMA trusted_schema = OFF")  # as some SQLite builds default
        register_sql_functions(conn)
        conn.executescript(
            "CREATE TABLE t (x TEXT); CREATE TABLE terms (y TEXT);"
            " CREATE TRIGGER feed AFTER INSERT ON t BEGIN"
            " INSERT INTO terms VALUES (parley_short_terms(new.x)); END;"
        )
        conn.execute("INSERT INTO t VALUES ('a,b')")
        assert conn.execute("SELECT y FROM terms").fetchone()[0] == index_text("a,b")
    finally:
        conn.close()


def test_a_connection_without_the_function_reads_but_cannot_write(db_path: Path) -> None:
    with Database.open(db_path) as db, db.write() as conn:
        conn.exec_driver_sql(
            "INSERT INTO conversations (id, title, created_at, updated_at) VALUES ('c', 't', 1, 1)"
        )
    bare = sqlite3.connect(db_path)
    try:
        assert bare.execute("SELECT title FROM conversations").fetchall() == [("t",)]
        with pytest.raises(sqlite3.OperationalError, match="no such function"):
            bare.execute("UPDATE conversations SET title = 'changed'")
        assert bare.execute("SELECT title FROM conversations").fetchall() == [("t",)]
    finally:
        bare.close()
