"""Which words of a question the word search looks for, against a real index file."""

from __future__ import annotations

from sqlalchemy import text

from desktop.storage.knowledge_terms import (
    PRUNE_FLOOR,
    TermFrequencies,
    match_expression,
    pick_terms,
    query_terms,
)
from desktop.storage.sqlite_engine import read_transaction
from tests.support.knowledge_rows import add_source


def test_query_terms_are_the_terms_the_index_holds():
    passage = "Café ÜBER naïve ERR_7734 Straße İstanbul Łódź 東京タワー co-op 3.14"
    assert query_terms("CAFE café Cafe") == ["cafe"]
    assert query_terms("東京タワー") == ["東京", "京タ", "タワ", "ワー"]
    assert query_terms("") == []
    assert query_terms('  " * - ') == []
    assert set(query_terms(passage)) >= {"cafe", "uber", "naive", "err", "7734", "łodz"}


def test_query_terms_agree_with_the_index_vocabulary(index):
    passage = (
        "Café ÜBER naïve ERR_7734 Straße İstanbul ΣΊΣΥΦΟΣ Łódź 東京タワー co-op 3.14 e\u0301te"
    )
    add_source(index, "lib", "a.md", [passage])
    with read_transaction(index) as connection:
        vocabulary = {row[0] for row in connection.execute(text("SELECT term FROM chunks_vocab"))}
    assert set(query_terms(passage)) == vocabulary


def test_syntax_characters_are_quoted_text():
    terms = query_terms('"ERR_7734" OR * NEAR(a b) -x AND ^y')
    assert terms == ["err", "7734", "or", "near", "a", "b", "x", "and", "y"]
    assert match_expression(['say"hi', "x"]) == '"say""hi" OR "x"'


def test_term_choice_rules():
    total = 100_000
    common = {"the": 99_000, "and": 80_000, "data": 25_000}
    middling = {"system": 9_000, "files": 6_000, "backup": 3_000}
    rare = {"zebra": 40, "quagga": 7}
    frequency = common | middling | rare | {"unknown": 0}

    def kept(*terms: str) -> tuple[str, ...]:
        return pick_terms(list(terms), frequency, total).kept

    # More than 20 % of the chunks: dropped; the rest rarest first.
    assert kept("the", "zebra", "data", "quagga") == ("quagga", "zebra")
    # Together at most 10 % of the chunks: the rarer ones first, the rarest always.
    assert kept("system", "files", "backup") == ("backup", "files")
    assert kept("system", "zebra") == ("zebra", "system")
    assert kept("system") == ("system",)
    # Every term common: all of them, required together.
    choice = pick_terms(["the", "and", "data"], frequency, total)
    assert (choice.kept, choice.all_required) == (("data", "and", "the"), True)
    assert pick_terms(["the"], frequency, total).kept == ("the",)
    # In no chunk: nothing to search for.
    assert kept("unknown") == ()
    # At most eight.
    many = {f"w{n}": n + 1 for n in range(12)}
    assert pick_terms(list(many), many, total).kept == tuple(f"w{n}" for n in range(8))
    # A small index: nothing is too common below the floor.
    assert pick_terms(["the", "zebra"], {"the": 50, "zebra": 3}, 60).kept == ("zebra", "the")


def test_frequent_terms_are_remembered_while_the_index_size_holds(index):
    add_source(index, "lib", "a.md", [f"zebra {n}" for n in range(20)])
    frequencies = TermFrequencies(census_floor=10)  # "zebra" is frequent, "7" is not
    with read_transaction(index) as connection:
        assert frequencies.read(connection, ["zebra", "7"]) == (20, {"zebra": 20, "7": 1})
    add_source(index, "lib", "b.md", ["zebra again 7"])  # 5 % more chunks
    with read_transaction(index) as connection:
        # The chunks are counted again (a library changed), the frequent term remembered,
        # the others read as they are asked.
        assert frequencies.read(connection, ["zebra", "again", "7"]) == (
            21,
            {"zebra": 20, "again": 1, "7": 2},
        )
    add_source(index, "lib", "c.md", ["zebra", "zebra", "zebra"])  # 20 % more: read again
    with read_transaction(index) as connection:
        assert frequencies.read(connection, ["zebra"]) == (24, {"zebra": 24})


def test_frequencies_are_exact_for_common_rare_and_absent_terms(index):
    add_source(index, "lib", "a.md", [f"the week {n}" for n in range(PRUNE_FLOOR * 6)])
    add_source(index, "lib", "b.md", [f"zebra {n}" for n in range(PRUNE_FLOOR)])
    with read_transaction(index) as connection:
        total, counts = TermFrequencies().read(connection, ["week", "zebra", "7", "unicorn"])
    assert total == PRUNE_FLOOR * 7
    assert counts == {"week": PRUNE_FLOOR * 6, "zebra": PRUNE_FLOOR, "7": 2, "unicorn": 0}
