"""The prompt library's plain parts: variables, filling them, finding prompts as the
person types after "/", and reading the list from settings.json leniently."""

from __future__ import annotations

from desktop.core.prompts import (
    SavedPrompt,
    dump_prompts,
    fill,
    matches,
    read_prompts,
    slash_query,
    variables,
)
from desktop.core.settings import Settings, dump_settings, parse_settings


def prompt(title: str, text: str = "", prompt_id: str = "") -> SavedPrompt:
    return SavedPrompt(prompt_id or title.lower(), title, text)


# --- variables ----------------------------------------------------------------------


def test_variables_are_the_distinct_names_in_order_trimmed():
    text = "To {{ language }} in a {{tone}} tone; {{language}} again, {{ target-audience }}."
    assert variables(text) == ["language", "tone", "target-audience"]


def test_variable_names_may_hold_spaces_underscores_and_any_letters():
    text = "{{first name}} {{last_name}} {{ langue cible }} {{语言}} {{ x2 }}"
    assert variables(text) == ["first name", "last_name", "langue cible", "语言", "x2"]


def test_what_is_not_a_variable_is_left_alone():
    text = "{{}} {{ }} {{a.b}} {x} {{ a/b }} {{ -}} json {{\n  name\n}}"
    assert variables(text) == []
    assert fill(text, {"a.b": "no", "name": "no"}) == text


def test_names_are_case_sensitive():
    assert variables("{{Name}} {{name}}") == ["Name", "name"]


def test_fill_replaces_every_occurrence_whatever_the_spacing():
    text = "Translate into {{language}}. Reply in {{ language }} only."
    assert fill(text, {"language": "French"}) == "Translate into French. Reply in French only."


def test_an_unfilled_or_blank_variable_stays_as_written():
    text = "Dear {{ name }}, about {{topic}}"
    assert fill(text, {"topic": "   "}) == text
    assert fill(text, {"name": "Ana"}) == "Dear Ana, about {{topic}}"


def test_a_value_is_not_expanded_again():
    assert fill("{{a}} {{b}}", {"a": "{{b}}", "b": "B"}) == "{{b}} B"


# --- finding ------------------------------------------------------------------------


LIBRARY = [
    prompt("Explain code", "Explain what this code does"),
    prompt("Code review", "Review this diff for bugs"),
    prompt("Summarise", "Summarise the following"),
    prompt("Résumé helper", "Improve my CV"),
    prompt("Unicode tips", "Explain encodings"),
    prompt("Translate", "Translate into {{language}}: keep the code blocks"),
]


def titles(found: list[SavedPrompt]) -> list[str]:
    return [p.title for p in found]


def test_an_empty_query_lists_every_prompt_in_the_librarys_order():
    assert matches(LIBRARY, "") == LIBRARY
    assert matches(LIBRARY, "   ") == LIBRARY


def test_title_prefix_then_word_prefix_then_title_then_text():
    assert titles(matches(LIBRARY, "code")) == [
        "Code review",  # the title starts with it
        "Explain code",  # a word of the title does
        "Unicode tips",  # the title holds it
        "Translate",  # only the text does
    ]


def test_case_and_accents_do_not_matter():
    assert titles(matches(LIBRARY, "RESUME")) == ["Résumé helper"]
    assert titles(matches(LIBRARY, "résu")) == ["Résumé helper"]
    assert titles(matches(LIBRARY, "sUmMa")) == ["Summarise"]


def test_nothing_matches_nothing():
    assert matches(LIBRARY, "zebra") == []


# --- "/" in the composer ----------------------------------------------------------


def test_a_slash_opening_a_line_starts_a_query():
    assert slash_query("/") == (0, "")
    assert slash_query("/tra") == (0, "tra")
    assert slash_query("  /tra") == (2, "tra")
    assert slash_query("\t/sum it") == (1, "sum it")


def test_a_slash_inside_a_sentence_or_a_path_does_not():
    assert slash_query("1/2") is None
    assert slash_query("see /usr") is None
    assert slash_query("/usr/bin") is None
    assert slash_query("") is None


# --- settings.json ----------------------------------------------------------------


def test_prompts_round_trip_through_the_settings_file():
    saved = (prompt("Summarise", "Sum it up", "p1"), prompt("Translate", "To {{x}}", "p2"))
    data = dump_settings(Settings(prompts=saved))
    assert data["prompts"] == dump_prompts(saved)
    assert parse_settings(data).prompts == saved


def test_no_prompts_write_no_key():
    assert "prompts" not in dump_settings(Settings())


def test_broken_entries_are_skipped_and_named_the_rest_kept():
    read = read_prompts(
        [
            {"id": "a", "title": "Good", "text": "Kept"},
            "not an object",
            {"id": "b", "title": 3, "text": "x"},
            {"id": "c", "title": "   ", "text": "no title"},
            {"id": "d", "title": "Also  good", "text": "Kept too", "future_key": True},
        ]
    )
    assert read.prompts == (
        SavedPrompt("a", "Good", "Kept"),
        SavedPrompt("d", "Also good", "Kept too"),
    )
    assert [e.field for e in read.skipped] == ["prompts[1]", "prompts[2].title", "prompts[3].title"]


def test_a_missing_or_repeated_id_gets_a_new_one():
    read = read_prompts(
        [{"title": "One", "text": ""}, {"id": "x", "title": "Two"}, {"id": "x", "title": "Three"}]
    )
    ids = [p.id for p in read.prompts]
    assert ids[1] == "x" and len(set(ids)) == 3 and all(ids)
    assert read.skipped == ()


def test_a_prompts_value_that_is_not_a_list_is_left_out_with_the_rest_kept():
    settings = parse_settings({"prompts": {"oops": 1}, "currency": "EUR"})
    assert settings.prompts == () and settings.currency == "EUR"
    assert [e.field for e in read_prompts({"oops": 1}).skipped] == ["prompts"]
