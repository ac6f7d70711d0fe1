"""The assistant's say over a request: which one a conversation uses, its sampling
settings over the composer's, and the tools it may offer."""

from dataclasses import replace

from desktop.core.assistants import DEFAULT_ASSISTANT, Assistant
from desktop.core.capabilities import ReasoningEffort
from desktop.core.models import Conversation
from desktop.core.settings import Settings
from desktop.engine.prompt.assistants import allowed, assistant_for, options_for
from desktop.engine.prompt.request_builder import RequestOptions

CODER = Assistant(id="coder", name="Coder", temperature=0.1, max_output_tokens=900)
SETTINGS = replace(Settings(), assistants=(CODER,))


def test_a_conversation_uses_its_assistant():
    conversation = Conversation(id="c", title="t", assistant_id="coder")
    assert assistant_for(SETTINGS, conversation) == CODER


def test_no_assistant_or_a_deleted_one_means_the_default():
    assert assistant_for(SETTINGS, Conversation(id="c", title="t")) == DEFAULT_ASSISTANT
    gone = Conversation(id="c", title="t", assistant_id="removed")
    assert assistant_for(SETTINGS, gone) == DEFAULT_ASSISTANT
    assert assistant_for(replace(SETTINGS, default_assistant="coder"), None) == CODER


def test_the_assistant_overrides_only_what_it_sets():
    base = RequestOptions(
        system="sys",
        temperature=0.9,
        top_p=0.5,
        max_output_tokens=4000,
        reasoning_effort=ReasoningEffort.HIGH,
    )
    options = options_for(CODER, base)
    assert options.temperature == 0.1
    assert options.max_output_tokens == 900
    assert options.top_p == 0.5
    assert options.reasoning_effort is ReasoningEffort.HIGH
    assert options.system == "sys"


def test_every_setting_can_be_overridden():
    full = Assistant(
        id="f", name="F", temperature=0.0, top_p=0.0, max_output_tokens=1, reasoning_effort="off"
    )
    options = options_for(full, RequestOptions(temperature=1.0, top_p=1.0))
    assert (options.temperature, options.top_p, options.max_output_tokens) == (0.0, 0.0, 1)
    assert options.reasoning_effort is ReasoningEffort.OFF


def test_an_assistant_without_settings_keeps_the_base():
    base = RequestOptions(temperature=0.7, reasoning_effort=ReasoningEffort.LOW)
    assert options_for(DEFAULT_ASSISTANT, base) == base


def test_allowed_tools_filter_what_is_offered():
    names = ["read_file", "write_file", "shell"]
    assert allowed(DEFAULT_ASSISTANT, names) == set(names)
    limited = Assistant(id="r", name="R", allowed_tools=("read_file", "not_installed"))
    assert allowed(limited, names) == {"read_file"}
    assert allowed(Assistant(id="n", name="N", allowed_tools=()), names) == set()
