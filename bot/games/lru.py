"""``LRU``: a dictionary that keeps its most recently used entries only.

The process's caches of games are bounded by it: every live object is walked by each
full garbage collection, so a cache that grew with the games in progress made those
pauses grow with them too. What falls out is read again from the database.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LRU(Generic[K, V]):
    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("an LRU holds at least one entry")
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def pop(self, key: K) -> V | None:
        return self._entries.pop(key, None)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[K]:
        return iter(list(self._entries))


__all__ = ["LRU"]
