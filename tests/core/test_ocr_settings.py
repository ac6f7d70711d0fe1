"""The OCR model setting: "provider/model" or null, round-tripped and checked."""

import pytest

from desktop.core.errors import SettingsError
from desktop.core.models import ModelRef
from desktop.core.settings import ProviderSettings, Settings, dump_settings, parse_settings

OPENROUTER = {
    "id": "openrouter",
    "name": "OpenRouter",
    "base_url": "https://openrouter.ai/api/v1",
    "models": ["openai/gpt-4o"],
}


def test_the_ocr_model_round_trips_keeping_slashes_in_the_model_id():
    settings = parse_settings({"providers": [OPENROUTER], "ocr_model": "openrouter/openai/gpt-4o"})
    assert settings.ocr_model == ModelRef("openrouter", "openai/gpt-4o")
    data = dump_settings(settings)
    assert data["ocr_model"] == "openrouter/openai/gpt-4o"
    assert parse_settings(data) == settings


def test_no_ocr_model_is_the_default_and_is_not_written():
    assert parse_settings({"ocr_model": None}).ocr_model is None
    assert parse_settings({}).ocr_model is None
    assert "ocr_model" not in dump_settings(Settings())


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("gpt-4o", '\'gpt-4o\' is not a "provider/model" reference (e.g. "openai/gpt-4o")'),
        ("Open AI/gpt-4o", 'is not a "provider/model" reference'),
        ("openai/ ", 'is not a "provider/model" reference'),
        (42, 'must be a "provider/model" string or null, not int'),
        ({"provider": "openai"}, 'must be a "provider/model" string or null, not dict'),
    ],
)
def test_a_bad_ocr_model_is_rejected_with_a_clear_message(value, problem):
    with pytest.raises(SettingsError) as caught:
        parse_settings({"ocr_model": value})
    assert caught.value.field == "ocr_model"
    assert problem in caught.value.problem


def test_removing_its_provider_forgets_the_ocr_model():
    provider = ProviderSettings("openrouter", "OpenRouter", base_url="https://x.test/v1")
    other = ProviderSettings("local", "Local", base_url="http://127.0.0.1:1/v1")
    settings = Settings(providers=(provider, other), ocr_model=ModelRef("openrouter", "m"))
    assert settings.without_provider("local").ocr_model == ModelRef("openrouter", "m")
    assert settings.without_provider("openrouter").ocr_model is None
