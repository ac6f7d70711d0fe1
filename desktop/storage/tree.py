"""Walks over a conversation's message tree, held in memory as plain maps.

Pure functions: the repository loads ids once and asks these where a branch leads.
"""

from __future__ import annotations

from desktop.core.models import Message

# Child ids per parent id (None: the roots), each list in creation order.
ChildrenMap = dict[str | None, list[str]]


def path_to(by_id: dict[str, Message], leaf: Message) -> list[Message]:
    """Root ... leaf, stopping at a missing parent or a cycle (corrupt data)."""
    path: list[Message] = []
    seen: set[str] = set()
    node: Message | None = leaf
    while node is not None and node.id not in seen:
        seen.add(node.id)
        path.append(node)
        node = by_id.get(node.parent_id) if node.parent_id else None
    path.reverse()
    return path


def newest_leaf(children: ChildrenMap, message_id: str) -> str:
    """Follow the newest child at each level: what a version switch shows."""
    seen = {message_id}
    while (kids := children.get(message_id)) and kids[-1] not in seen:
        message_id = kids[-1]
        seen.add(message_id)
    return message_id


def subtree(children: ChildrenMap, message_id: str) -> set[str]:
    found = {message_id}
    stack = [message_id]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def leaf_after_delete(children: ChildrenMap, node: Message) -> str | None:
    """Where the view goes after `node` is deleted: a sibling's branch, else the parent."""
    siblings = children.get(node.parent_id, [])
    index = siblings.index(node.id)
    if index > 0:
        return newest_leaf(children, siblings[index - 1])
    if index + 1 < len(siblings):
        return newest_leaf(children, siblings[index + 1])
    return node.parent_id
