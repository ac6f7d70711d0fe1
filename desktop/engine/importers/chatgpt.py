"""ChatGPT's data export: `conversations.json` in the export zip.

The file is a list of conversations, each a tree of nodes (`mapping`: node id ->
{parent, children, message}) with `current_node`, the leaf ChatGPT showed. The tree is
kept as it is: a regenerated answer or an edited question is a sibling here, and
`current_node` is the active leaf. Nodes the person never saw (the empty root, system
and hidden context nodes) are left out and their children hang from the nearest kept
ancestor. The nodes of one assistant turn (thoughts, the recap, tool calls and their
outputs, the answer) become one assistant message with those parts in order
(`chatgpt_content.Turn`); a branch inside a turn starts a new message there.

The file is read as text once and decoded one conversation at a time, so an export of
hundreds of megabytes never exists as one Python list.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import PurePosixPath
from typing import Any

from desktop.core.i18n import tr
from desktop.core.models import Conversation, Message, MessageStatus, ModelRef, Role, utc_now
from desktop.engine.importers.chatgpt_assets import Assets
from desktop.engine.importers.chatgpt_content import Source, Turn, source_of
from desktop.engine.importers.files import MAX_JSON_BYTES, ExportError, ExportFiles
from desktop.engine.importers.model import (
    ImportedConversation,
    ImportedFile,
    Skipped,
    derived_id,
    from_epoch,
)

CLIENT = "chatgpt"
LABEL = "ChatGPT"

_SHARD = re.compile(r"conversations-\d+\.json")
_SPACE = re.compile(r"[ \t\r\n]*")
_DETECT_LOOKS = 5  # how many entries detect() reads before it says no


def detect(files: ExportFiles) -> bool:
    """A list of objects with a `mapping` tree and a `current_node`; only the first
    few entries are decoded."""
    names = _sources(files)
    if not names:
        return False
    try:
        for index, entry in enumerate(_entries(_text_of(files, names[0]))):
            if isinstance(entry, dict) and isinstance(entry.get("mapping"), dict):
                return "current_node" in entry
            if index + 1 >= _DETECT_LOOKS:
                break
    except (ExportError, ValueError, RecursionError):
        return False
    return False


def read(files: ExportFiles) -> Iterator[ImportedConversation | Skipped]:
    names = _sources(files)
    if not names:
        raise ExportError(tr("The export has no conversations.json."))
    owners: dict[str, str] = {}  # message id -> conversation id, across the export
    assets = Assets(files)
    number = 0
    left_out = 0
    for name in names:
        entries = _entries(_text_of(files, name))
        while True:
            try:
                entry = next(entries)
            except StopIteration:
                break
            except (ValueError, RecursionError) as error:
                yield Skipped(
                    name,
                    tr(
                        "The rest of the file is not valid JSON ({error}); "
                        "what came before it was read."
                    ).format(error=error),
                )
                break
            number += 1
            item = _conversation(entry, number, owners, assets)
            if isinstance(item, ImportedConversation):
                left_out += item.files_left_out
            yield item
    if assets.single and left_out:
        yield Skipped(
            names[0],
            tr(
                "Only this file was chosen, not the whole export, so %n image(s) and file(s) "
                "of its chats cannot be imported. Choose the export's zip file to bring them "
                "in too.",
                "",
                left_out,
            ),
        )


def _sources(files: ExportFiles) -> list[str]:
    """conversations.json; the numbered parts some exports split it into; or the one
    file that was chosen on its own, whatever its name."""
    main = files.find("conversations.json")
    if main is not None:
        return [main]
    shards = [n for n in files.names if _SHARD.fullmatch(PurePosixPath(n).name)]
    if shards:
        depth = min(n.count("/") for n in shards)
        return sorted(n for n in shards if n.count("/") == depth)
    return list(files.names) if len(files.names) == 1 else []


def _text_of(files: ExportFiles, name: str) -> str:
    data = files.read(name)
    if len(data) > MAX_JSON_BYTES:
        raise ExportError(tr("{name} is too large to read.").format(name=name))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ExportError(
            tr("{name} is not UTF-8 text: {error}").format(name=name, error=error)
        ) from error


def _entries(text: str) -> Iterator[Any]:
    """The values of the JSON array `text`, decoded one at a time. ExportError when it
    is not an array; ValueError (JSONDecodeError) where it stops being valid JSON."""
    decoder = json.JSONDecoder()
    position = _skip(text, 0)
    if not text.startswith("[", position):
        raise ExportError(tr("This is not a list of ChatGPT conversations."))
    position = _skip(text, position + 1)
    if text.startswith("]", position):
        return
    while True:
        value, position = decoder.raw_decode(text, position)
        yield value
        position = _skip(text, position)
        if text.startswith(",", position):
            position = _skip(text, position + 1)
        elif text.startswith("]", position):
            return
        else:
            raise json.JSONDecodeError("Expecting ',' or ']'", text, position)


def _skip(text: str, position: int) -> int:
    match = _SPACE.match(text, position)
    return match.end() if match else position


def _conversation(
    raw: object, number: int, owners: dict[str, str], assets: Assets | None = None
) -> ImportedConversation | Skipped:
    if not isinstance(raw, dict):
        return Skipped(
            tr("conversation {number}").format(number=number),
            tr("it is not a conversation (not a JSON object)"),
        )
    title = raw.get("title")
    named = title.strip()[:500] if isinstance(title, str) else ""
    where = named or tr("conversation {number}").format(number=number)
    try:
        return _Tree(raw, named, where, owners, assets).build()
    except Exception as error:  # hostile input: this conversation is lost, not the rest
        return Skipped(where, tr("it could not be read: {error}").format(error=error))


class _Tree:
    """One conversation's mapping, turned into Parley messages."""

    def __init__(
        self,
        raw: dict[str, Any],
        title: str,
        where: str,
        owners: dict[str, str],
        assets: Assets | None = None,
    ) -> None:
        self.raw = raw
        self.assets = assets
        self.title = title
        self.where = where
        self.owners = owners
        self.skipped: list[Skipped] = []
        self.parent_of: dict[str, str | None] = {}
        self.kept: dict[str, Source] = {}
        self.number: dict[str, int] = {}  # node -> its place in the mapping, for reasons
        self._up: dict[str, str | None] = {}

    def build(self) -> ImportedConversation | Skipped:
        source_id = self.raw.get("conversation_id") or self.raw.get("id")
        if not isinstance(source_id, str) or not source_id:
            return Skipped(self.where, tr("it has no id"))
        mapping = self.raw.get("mapping")
        if not isinstance(mapping, dict):
            return Skipped(self.where, tr("its message tree is missing or unreadable"))
        conversation_id = derived_id(CLIENT, "conversation", source_id)
        self._read_nodes(mapping)
        turns, turn_of = self._turns()
        messages, files = self._messages(conversation_id, turns)
        if not messages:
            return Skipped(self.where, tr("no messages"))
        shared = next(
            (m.id for m in messages if self.owners.get(m.id, conversation_id) != conversation_id),
            None,
        )
        if shared is not None:
            return Skipped(
                self.where, tr("it shares messages with another conversation of this export")
            )
        self.owners.update((m.id, conversation_id) for m in messages)
        left_out = sum(turn.left_out for turn in turns)
        children: dict[str, int] = {}
        for message in messages:
            if message.parent_id is not None:
                children[message.parent_id] = children.get(message.parent_id, 0) + 1
        return ImportedConversation(
            conversation=Conversation(
                id=conversation_id,
                title=self.title or tr("Untitled chat"),
                created_at=self._created(messages),
                updated_at=_epoch(self.raw.get("update_time"))
                or max(m.created_at for m in messages),
                archived=self.raw.get("is_archived") is True,
                active_leaf_id=self._active_leaf(messages, children, turn_of),
            ),
            messages=tuple(messages),
            skipped=tuple(self.skipped),
            branches=sum(1 for count in children.values() if count > 1),
            images=sum(turn.images for turn in turns),
            notes=self._notes(left_out),
            files=tuple(files),
            files_left_out=left_out,
        )

    def _notes(self, left_out: int) -> tuple[str, ...]:
        if not left_out or (self.assets is not None and self.assets.single):
            return ()  # a conversations.json on its own: said once for the whole export
        return (
            tr(
                "%n image(s) or file(s) shown in ChatGPT are not in the export or cannot be "
                "shown in Parley; a note marks each place.",
                "",
                left_out,
            ),
        )

    # Nodes

    def _read_nodes(self, mapping: dict[Any, Any]) -> None:
        claimed: dict[str, str] = {}  # child -> the node listing it, for nodes with no parent
        for key, node in mapping.items():
            children = node.get("children") if isinstance(node, dict) else None
            for child in children if isinstance(children, list) else []:
                if isinstance(child, str):
                    claimed.setdefault(child, key)
        for number, (key, node) in enumerate(mapping.items(), start=1):
            self.number[key] = number
            if not isinstance(node, dict):
                self.parent_of[key] = claimed.get(key)
                self._skip(number, tr("it is not a JSON object"))
                continue
            parent = node.get("parent")
            if not isinstance(parent, str) or parent not in mapping or parent == key:
                parent = claimed.get(key)
            self.parent_of[key] = parent
            message = node.get("message")
            if message is None:
                continue  # the empty root and other placeholders
            if not isinstance(message, dict):
                self._skip(number, tr("it is not a JSON object"))
                continue
            found = source_of(key, message)
            if isinstance(found, str):
                self._skip(number, found)
            elif found is not None:
                self.kept[key] = found

    def _skip(self, number: int, reason: str) -> None:
        where = tr("message {number} of “{title}”").format(number=number, title=self.where)
        self.skipped.append(Skipped(where, reason))

    def _nearest_kept(self, key: str | None) -> str | None:
        """`key` if it is kept, else its nearest kept ancestor; None at the root or on a
        loop of parents."""
        path: list[str] = []
        seen: set[str] = set()
        current = key
        while current is not None and current not in self.kept and current not in self._up:
            if current in seen:
                current = None
                break
            seen.add(current)
            path.append(current)
            current = self.parent_of.get(current)
        found = current if current is None or current in self.kept else self._up[current]
        for node in path:
            self._up[node] = found
        return found

    # Turns

    def _turns(self) -> tuple[list[Turn], dict[str, Turn]]:
        """The kept nodes grouped into turns, parents before children (depth first)."""
        children: dict[str | None, list[str]] = {}
        for key in self.kept:
            children.setdefault(self._nearest_kept(self.parent_of.get(key)), []).append(key)
        turns: list[Turn] = []
        turn_of: dict[str, Turn] = {}
        stack: list[tuple[str, str | None]] = [(k, None) for k in reversed(children.get(None, []))]
        while stack:
            key, parent = stack.pop()
            source = self.kept[key]
            above = turn_of.get(parent) if parent is not None else None
            if (
                above is not None
                and above.role == "assistant"
                and source.role != "user"
                and len(children.get(parent, [])) == 1
            ):
                turn = above
            else:
                turn = Turn(first=source, parent=above, assets=self.assets)
                turns.append(turn)
            turn.add(source)
            turn_of[key] = turn
            stack.extend((child, key) for child in reversed(children.get(key, [])))
        for key in self.kept:
            if key not in turn_of:
                self._skip(self.number[key], tr("its replies go round in a loop"))
        return turns, turn_of

    def _messages(
        self, conversation_id: str, turns: list[Turn]
    ) -> tuple[list[Message], list[ImportedFile]]:
        """One message per turn with parts or files; a turn with neither (an empty
        answer, thoughts with no text) hands its children to its parent, and stands for
        that message."""
        base = self._created_source()
        messages: list[Message] = []
        files: list[ImportedFile] = []
        time_of: dict[str, datetime] = {}
        for position, turn in enumerate(turns, start=1):
            parent_id = turn.parent.message_id if turn.parent is not None else None
            parts = turn.finished_parts()
            if not parts and not turn.files:
                turn.message_id = parent_id
                continue
            created = turn.first.time
            if created is None:
                created = base + timedelta(microseconds=position)
                if parent_id is not None and created <= time_of[parent_id]:
                    created = time_of[parent_id] + timedelta(microseconds=1)
            message = Message(
                id=derived_id(CLIENT, "message", turn.first.key),
                conversation_id=conversation_id,
                parent_id=parent_id,
                role=Role.USER if turn.role == "user" else Role.ASSISTANT,
                parts=parts,
                status=MessageStatus.COMPLETE,
                model=ModelRef(CLIENT, turn.model) if turn.model and turn.role != "user" else None,
                created_at=created,
                finished_at=turn.last_time
                if turn.role != "user" and turn.last_time and turn.last_time >= created
                else None,
            )
            messages.append(message)
            files += [replace(f, message_id=message.id) for f in turn.files]
            turn.message_id = message.id
            time_of[message.id] = created
        return messages, files

    # Times and the active leaf

    def _created_source(self) -> datetime:
        """The conversation's own time, else its first message's, else now: the base of
        the times given to messages the export left without one."""
        known = [s.time for s in self.kept.values() if s.time is not None]
        return (
            _epoch(self.raw.get("create_time"))
            or (min(known) if known else None)
            or _epoch(self.raw.get("update_time"))
            or utc_now()
        )

    def _created(self, messages: list[Message]) -> datetime:
        return _epoch(self.raw.get("create_time")) or min(m.created_at for m in messages)

    def _active_leaf(
        self,
        messages: list[Message],
        children: dict[str, int],
        turn_of: dict[str, Turn],
    ) -> str:
        current = self.raw.get("current_node")
        if isinstance(current, str) and current in self.parent_of:
            turn = turn_of.get(self._nearest_kept(current) or "")
            if turn is not None and turn.message_id is not None:
                return turn.message_id
        leaves = [m for m in messages if m.id not in children]
        return max(leaves, key=lambda m: m.created_at).id


def _epoch(value: object) -> datetime | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return from_epoch(value)
    return None
