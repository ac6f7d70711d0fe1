"""What every model step of one answer is built from, decided once when it starts.

The conversation's assistant (its prompt, sampling and allowed tools), the window of
messages the rolling context sends with the summary that stands for the rest, and the
attached files read for the model. Each step then only adds the answer so far and
goes through the prompt pipeline (`prompt/pipeline.py`).
"""

from __future__ import annotations

import getpass
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from desktop.core.assistants import Assistant
from desktop.core.models import Conversation, Message
from desktop.engine.assistants import allowed
from desktop.engine.prompt.clock import local_zone_name
from desktop.engine.prompt.pipeline import prepare_request
from desktop.engine.request_builder import RequestOptions, Step
from desktop.engine.tools.registry import Toolbox
from desktop.providers.base import ChatRequest


def person_name() -> str:
    """The account's name for `{{user}}`; "" when the system cannot say."""
    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):
        return ""


@dataclass(frozen=True, slots=True)
class AnswerInputs:
    assistant: Assistant
    conversation: Conversation | None
    window: tuple[Message, ...]  # what the context planner sends in full
    summary_text: str | None  # the validated rolling summary standing for the rest
    options: RequestOptions
    tools_wanted: bool  # tools would be offered if the model could call them

    def request(self, path: Sequence[Message], model: str, step: Step) -> ChatRequest:
        return prepare_request(
            path,
            model,
            self.options,
            step=step,
            assistant=self.assistant,
            conversation=self.conversation,
            summary_text=self.summary_text,
            now=datetime.now().astimezone(),
            timezone_name=local_zone_name(),
            user=person_name(),
            tools_wanted=self.tools_wanted,
        )


def allowed_toolbox(toolbox: Toolbox, assistant: Assistant) -> Toolbox:
    """Only the tools the assistant may offer; a call to any other is refused."""
    names = allowed(assistant, toolbox.tools)
    if len(names) == len(toolbox.tools):
        return toolbox
    return Toolbox({n: t for n, t in toolbox.tools.items() if n in names}, toolbox.context)
