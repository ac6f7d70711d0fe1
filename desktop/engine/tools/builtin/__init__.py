"""Parley's own tools: time; searches of documents, the web and past chats; memories;
session capabilities; and the workspace tools (list, read, search, write, run a
command) rooted in the folder the person picked for the conversation."""

from __future__ import annotations

from desktop.engine.tools.builtin.command import RUN_COMMAND
from desktop.engine.tools.builtin.files import LIST_FILES, READ_FILE, SEARCH_FILES
from desktop.engine.tools.builtin.knowledge import SEARCH_KNOWLEDGE
from desktop.engine.tools.builtin.memory import (
    DELETE_MEMORY,
    SAVE_MEMORY,
    SEARCH_MEMORY,
    UPDATE_MEMORY,
)
from desktop.engine.tools.builtin.past_chats import SEARCH_PAST_CHATS
from desktop.engine.tools.builtin.session import CAPABILITIES, CURRENT_TIME
from desktop.engine.tools.builtin.web import FETCH_WEB_PAGE, SEARCH_WEB
from desktop.engine.tools.builtin.write import WRITE_FILE
from desktop.engine.tools.registry import Tool

BUILTIN_TOOLS: tuple[Tool, ...] = (
    SEARCH_KNOWLEDGE,
    SEARCH_WEB,
    FETCH_WEB_PAGE,
    SEARCH_MEMORY,
    SAVE_MEMORY,
    UPDATE_MEMORY,
    DELETE_MEMORY,
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
