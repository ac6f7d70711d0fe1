"""Walks over a conversation's message tree, held in memory as plain maps.

Pure functions: the repository loads ids once and asks these where a branch leads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from desktop.core.models import Message

# Child ids per parent id (None: the roots), each list in creation order.
ChildrenMap = dict[str | None, list[str]]


def path_ids(parents: Mapping[str, str | None], leaf_id: str) -> list[str]:
    """Root ... leaf, from each node's parent id; stops at a missing parent or a cycle
    (corrupt data). Ids only: callers decode just the nodes on the path."""
    path: list[str] = []
    seen: set[str] = set()
    node: str | None = leaf_id
    while node is not None and node in parents and node not in seen:
        seen.add(node)
        path.append(node)
        node = parents[node]
    path.reverse()
    return path


def newest_childless(children: ChildrenMap, ids_in_order: Sequence[str]) -> str | None:
    """The most recently created node without children; None if every node has some
    (only a cycle, i.e. corrupt data, does that)."""
    return next((i for i in reversed(ids_in_order) if i not in children), None)


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
