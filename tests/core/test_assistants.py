"""Assistants in settings.json: the built-in default, round trips, and validation that
names the field at fault."""

from dataclasses import replace

import pytest

from desktop.core.assistants import DEFAULT_ASSISTANT, Assistant, RetrievalMode
from desktop.core.errors import SettingsError
from desktop.core.memory import MemoryMode
from desktop.core.models import ModelRef
from desktop.core.settings import Settings, dump_settings, parse_settings

WRITER = Assistant(
    id="writer",
    name="Writer",
    icon="✍",
    system_prompt="You edit prose.",
    default_model=ModelRef("openrouter", "openai/gpt-4o"),
    temperature=0.3,
    top_p=0.9,
    max_output_tokens=2048,
    reasoning_effort="low",
    allowed_tools=("read_file", "search_conversations"),
    allow_prompt_override=False,
    context_threshold=8000,
    libraries=("docs",),
    retrieval=RetrievalMode.TOOL_ONLY,
    past_chats=True,
    memory=MemoryMode.RETRIEVE,
    global_memories=True,
)


def test_the_builtin_assistant_exists_without_any_configured():
    settings = parse_settings({})
    assert settings.assistants == ()
    assert settings.all_assistants() == (DEFAULT_ASSISTANT,)
    assert settings.assistant(None) == DEFAULT_ASSISTANT
    assert DEFAULT_ASSISTANT.id == "default" and DEFAULT_ASSISTANT.name == "Parley"
    assert DEFAULT_ASSISTANT.system_prompt == ""
    data = dump_settings(Settings())
    assert "assistants" not in data and "default_assistant" not in data


def test_every_field_round_trips():
    settings = replace(Settings(), assistants=(WRITER,), default_assistant="writer")
    data = dump_settings(settings)
    assert data["default_assistant"] == "writer"
    assert data["assistants"][0]["default_model"] == "openrouter/openai/gpt-4o"
    assert parse_settings(data) == settings


def test_only_what_differs_from_the_defaults_is_written():
    plain = Assistant(id="plain", name="Plain")
    data = dump_settings(replace(Settings(), assistants=(plain,)))
    assert data["assistants"] == [{"id": "plain", "name": "Plain"}]
    assert parse_settings(data).assistants == (plain,)


def test_an_empty_tool_list_means_no_tools_not_every_tool():
    data = {"assistants": [{"id": "talk", "name": "Talk", "allowed_tools": []}]}
    assert parse_settings(data).assistants[0].allowed_tools == ()
    data["assistants"][0]["allowed_tools"] = None
    assert parse_settings(data).assistants[0].allowed_tools is None


def test_lookup_falls_back_to_the_default_assistant():
    settings = replace(Settings(), assistants=(WRITER,), default_assistant="writer")
    assert settings.assistant("writer") == WRITER
    assert settings.assistant("deleted-since") == WRITER
    assert settings.assistant(None) == WRITER
    assert settings.assistant("default") == DEFAULT_ASSISTANT
    assert [a.id for a in settings.all_assistants()] == ["default", "writer"]


def test_the_builtin_assistant_can_be_replaced_by_its_id():
    mine = Assistant(id="default", name="Mine", system_prompt="Be brief.")
    settings = replace(Settings(), assistants=(mine,))
    assert settings.all_assistants() == (mine,)
    assert settings.assistant(None) == mine


@pytest.mark.parametrize(
    ("assistant", "where", "problem"),
    [
        ("x", "assistants[0]", "must be an object"),
        ({"id": "a", "name": "A", "promt": ""}, "assistants[0].promt", "unknown setting"),
        ({"name": "A"}, "assistants[0].id", "lowercase letters"),
        ({"id": "Has Space", "name": "A"}, "assistants[0].id", "lowercase letters"),
        ({"id": "a", "name": "  "}, "assistants[0].name", "must not be empty"),
    ],
)
def test_bad_assistants_are_named_precisely(assistant, where, problem):
    with pytest.raises(SettingsError) as raised:
        parse_settings({"assistants": [assistant]})
    assert raised.value.field == where
    assert problem in str(raised.value)


@pytest.mark.parametrize(
    ("key", "value", "problem"),
    [
        ("temperature", 2.5, "between 0 and 2"),
        ("temperature", -0.1, "between 0 and 2"),
        ("temperature", "hot", "must be a number"),
        ("top_p", 1.5, "between 0 and 1"),
        ("max_output_tokens", 0, "more than 0"),
        ("max_output_tokens", 1.5, "whole number"),
        ("context_threshold", 999, "at least 1000"),
        ("reasoning_effort", "huge", "one of"),
        ("default_model", "gpt-4o", "provider/model"),
        ("allowed_tools", "read_file", "list of tool names"),
        ("allow_prompt_override", 1, "true or false"),
        ("retrieval", "sometimes", "one of: auto, pre_retrieve, tool_only"),
        ("retrieval", ["auto"], "one of"),
        ("past_chats", "yes", "true or false"),
        ("memory", "always", "one of: off, all, retrieve"),
        ("global_memories", 1, "true or false"),
    ],
)
def test_bad_values_are_named_precisely(key, value, problem):
    with pytest.raises(SettingsError) as raised:
        parse_settings({"assistants": [{"id": "a", "name": "A", key: value}]})
    assert raised.value.field == f"assistants[0].{key}"
    assert problem in str(raised.value)


def test_bad_tool_names_are_named_by_position():
    data = {"assistants": [{"id": "a", "name": "A", "allowed_tools": ["ok", "no spaces"]}]}
    with pytest.raises(SettingsError) as raised:
        parse_settings(data)
    assert raised.value.field == "assistants[0].allowed_tools[1]"


def test_ids_are_unique():
    twice = [{"id": "a", "name": "A"}, {"id": "a", "name": "B"}]
    with pytest.raises(SettingsError) as raised:
        parse_settings({"assistants": twice})
    assert raised.value.field == "assistants[1].id"


def test_the_default_must_be_a_known_assistant():
    with pytest.raises(SettingsError) as raised:
        parse_settings({"assistants": [{"id": "a", "name": "A"}], "default_assistant": "b"})
    assert raised.value.field == "default_assistant"
    assert parse_settings({"default_assistant": "default"}).default_assistant == "default"


def test_conversation_starters_are_kept_and_checked():
    starters = ("Quiz me on French verbs", "Plan a week of meals")
    settings = Settings(assistants=(Assistant("tutor", "Tutor", starters=starters),))
    data = dump_settings(settings)
    assert data["assistants"][0]["starters"] == list(starters)
    assert parse_settings(data).assistants[0].starters == starters
    assert (
        "starters"
        not in dump_settings(Settings(assistants=(Assistant("a", "A"),)))["assistants"][0]
    )
    for bad in ("not a list", [1], ["x"] * 7, ["y" * 501]):
        data["assistants"][0]["starters"] = bad
        with pytest.raises(SettingsError) as raised:
            parse_settings(data)
        assert raised.value.field == "assistants[0].starters"
