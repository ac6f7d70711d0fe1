import pytest

from desktop.core.errors import SettingsError
from desktop.core.models import ModelRef
from desktop.core.settings import ProviderSettings, Settings, Theme, dump_settings, parse_settings

LOCAL = {
    "id": "local",
    "name": "Local server",
    "kind": "openai_chat",
    "base_url": "http://127.0.0.1:8080/v1/",
    "models": ["qwen2.5-7b-instruct", "llama3.2"],
    "default_model": "llama3.2",
}


def test_a_complete_file_parses_and_round_trips():
    data = {
        "version": 1,
        "providers": [LOCAL],
        "appearance": {"theme": "dark", "font_size": 13},
        "last_model": {"provider": "local", "model": "qwen2.5-7b-instruct"},
    }
    settings = parse_settings(data)
    provider = settings.providers[0]
    assert provider.base_url == "http://127.0.0.1:8080/v1"  # trailing slash dropped
    assert provider.models == ("qwen2.5-7b-instruct", "llama3.2")
    assert settings.appearance.theme is Theme.DARK
    assert parse_settings(dump_settings(settings)) == settings


def test_an_empty_file_gives_defaults():
    assert parse_settings({}) == Settings()


def test_remote_images_are_off_unless_allowed_and_round_trip():
    assert Settings().appearance.load_remote_images is False
    allowed = parse_settings({"appearance": {"load_remote_images": True}})
    assert allowed.appearance.load_remote_images is True
    assert dump_settings(allowed)["appearance"]["load_remote_images"] is True
    assert parse_settings(dump_settings(allowed)) == allowed
    assert "load_remote_images" not in dump_settings(Settings())["appearance"]


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"providers": [{**LOCAL, "base_url": "ftp://x"}]}, "providers[0].base_url", "http"),
        ({"providers": [{**LOCAL, "base_url": 5}]}, "providers[0].base_url", "string"),
        ({"providers": [{**LOCAL, "id": "Has Space"}]}, "providers[0].id", "lowercase"),
        ({"providers": [{**LOCAL, "kind": "carrier-pigeon"}]}, "providers[0].kind", "unknown"),
        ({"providers": [{**LOCAL, "models": "gpt"}]}, "providers[0].models", "list"),
        ({"providers": [{**LOCAL, "models": ["a", ""]}]}, "providers[0].models[1]", "empty"),
        (
            {"providers": [{**LOCAL, "default_model": "nope"}]},
            "providers[0].default_model",
            "not in",
        ),
        ({"providers": [LOCAL, LOCAL]}, "providers[1].id", "twice"),
        ({"providers": [{**LOCAL, "api_key": "sk-123"}]}, "providers[0].api_key", "unknown"),
        ({"appearance": {"theme": "neon"}}, "appearance.theme", "one of"),
        ({"appearance": {"font_size": 2}}, "appearance.font_size", "between"),
        ({"appearance": {"load_remote_images": "yes"}}, "appearance.load_remote_images", "true"),
        ({"version": 99}, "version", "newer"),
        ({"providers": {}}, "providers", "list"),
        ([], "(top level)", "object"),
    ],
)
def test_invalid_settings_name_the_field_and_the_problem(data, field, words):
    with pytest.raises(SettingsError) as caught:
        parse_settings(data)
    assert caught.value.field == field
    assert words in caught.value.problem


def test_a_provider_stall_timeout_defaults_to_90_s_and_round_trips():
    default = parse_settings({"providers": [LOCAL]})
    assert default.providers[0].stall_timeout == 90
    assert "stall_timeout" not in dump_settings(default)["providers"][0]
    patient = parse_settings({"providers": [{**LOCAL, "stall_timeout": 600}]})
    assert patient.providers[0].stall_timeout == 600
    assert dump_settings(patient)["providers"][0]["stall_timeout"] == 600
    assert parse_settings(dump_settings(patient)) == patient
    assert (
        parse_settings({"providers": [{**LOCAL, "stall_timeout": 30.0}]}).providers[0].stall_timeout
        == 30
    )


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (5, "between 10 and 3600 seconds, not 5"),
        (0, "between 10 and 3600 seconds, not 0"),
        (3601, "between 10 and 3600 seconds, not 3601"),
        (12.5, "a whole number of seconds (10-3600)"),
        ("90", "a whole number of seconds (10-3600), not str"),
        (True, "a whole number of seconds"),
        (None, "a whole number of seconds"),
    ],
)
def test_an_invalid_stall_timeout_is_named_and_explained(value, words):
    with pytest.raises(SettingsError) as caught:
        parse_settings({"providers": [{**LOCAL, "stall_timeout": value}]})
    assert caught.value.field == "providers[0].stall_timeout"
    assert words in caught.value.problem


def test_preferred_model_falls_back_when_the_last_one_is_gone():
    provider = ProviderSettings(
        "local", "Local", base_url="http://x", models=("a", "b"), default_model="b"
    )
    settings = Settings(providers=(provider,), last_model=ModelRef("old", "z"))
    assert settings.preferred_model() == ModelRef("local", "b")
    assert Settings().preferred_model() is None


def test_with_provider_replaces_in_place_and_without_removes():
    a = ProviderSettings("a", "A", base_url="http://a")
    b = ProviderSettings("b", "B", base_url="http://b")
    settings = Settings(providers=(a, b))
    renamed = ProviderSettings("a", "Renamed", base_url="http://a")
    assert [p.name for p in settings.with_provider(renamed).providers] == ["Renamed", "B"]
    assert [p.id for p in settings.without_provider("a").providers] == ["b"]


def test_web_search_and_memory_sections_round_trip_and_stay_out_when_default():
    data = {
        "web_search": {"engine": "searxng", "searxng_url": "http://127.0.0.1:8888"},
        "memory": {"embedding": {"provider": "local", "model": "nomic-embed-text"}},
    }
    settings = parse_settings(data)
    assert settings.web_search.engine is not None
    assert settings.web_search.engine.value == "searxng"
    assert settings.memory.embedding is not None
    assert settings.memory.embedding.model == "nomic-embed-text"
    assert parse_settings(dump_settings(settings)) == settings
    plain = dump_settings(Settings())
    assert "web_search" not in plain and "memory" not in plain


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"memory": {"embedding": {"provider": "local"}}}, "memory.embedding.model"),
        ({"memory": {"model": "x"}}, "memory.model"),
        ({"web_search": {"engine": "bing"}}, "web_search.engine"),
    ],
)
def test_bad_web_search_and_memory_settings_name_the_field(data, field):
    with pytest.raises(SettingsError) as raised:
        parse_settings(data)
    assert raised.value.field == field
