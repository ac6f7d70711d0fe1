"""Parley's own tools: time, document and conversation search, session capabilities, and the
workspace tools (list, read, search, write, run a command) rooted in the folder the
person picked for the conversation."""

from __future__ import annotations

from desktop.engine.tools.builtin.command import RUN_COMMAND
from desktop.engine.tools.builtin.files import LIST_FILES, READ_FILE, SEARCH_FILES
from desktop.engine.tools.builtin.knowledge import SEARCH_KNOWLEDGE
from desktop.engine.tools.builtin.past_chats import SEARCH_PAST_CHATS
from desktop.engine.tools.builtin.session import CAPABILITIES, CURRENT_TIME
from desktop.engine.tools.builtin.write import WRITE_FILE
from desktop.engine.tools.registry import Tool

BUILTIN_TOOLS: tuple[Tool, ...] = (
    SEARCH_KNOWLEDGE,
    CURRENT_TIME,
    SEARCH_PAST_CHATS,
    CAPABILITIES,
    LIST_FILES,
    READ_FILE,
    SEARCH_FILES,
    WRITE_FILE,
    RUN_COMMAND,
)

__all__ = ["BUILTIN_TOOLS"]
