"""Pictures rendered off the event loop, and the latest ones kept.

A picture is a pure function of its :class:`PictureKey`: a game's board at one version,
seen from one side, in one language, in one style (and the names written on it), or one
player's hand at one version. :class:`PictureCache` renders each key once, in a small
thread pool (Pillow's drawing holds the GIL for short stretches only, its PNG
compression releases it), and keeps the most recent pictures::

    pictures = PictureCache()
    png = await pictures.board(game.public_view(), names, game_id=12, bottom=0)
    png = await pictures.hand(view.hand, game_id=12, version=view.version, player=view.player)
    png = await pictures.seat(view.public(), names, view.hand, game_id=12, player=view.player)
    pictures.close()   # at shutdown

Concurrent requests for one key share a single render. The language is the caller's
current one (:func:`bot.text.i18n.current`) unless given.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal

from bot.pictures import lettering
from bot.pictures.board import board_png
from bot.pictures.hand import hand_png
from bot.pictures.seat import seat_png
from bot.text import i18n
from rules.cards import Card
from rules.view import PublicView

Kind = Literal["board", "hand", "seat"]


@dataclass(frozen=True, slots=True)
class PictureKey:
    """What a picture depends on. ``bottom`` is the player drawn below the stones (a
    board), whose hand it is (a hand), or both (a seat: a player's board with their hand);
    ``style`` holds the rest of what is written on it: the names and the player
    addressed as "you" (a board), the cards (a hand), all of these (a seat)."""

    game_id: int
    version: int
    bottom: int
    language: str
    kind: Kind
    style: tuple[object, ...] = ()


@dataclass(slots=True)
class CacheStats:
    hits: int = 0
    renders: int = 0  # misses that were rendered (a miss joining a render under way is a hit)


class PictureCache:
    """An LRU of rendered pictures (PNG bytes) by :class:`PictureKey`.

    ``size``: how many pictures are kept (a board is 15-40 KB). ``executor``: where
    renders run; by default a pool of ``workers`` threads owned by the cache."""

    def __init__(self, size: int = 256, *, workers: int = 1, executor: Executor | None = None) -> None:
        if size < 1:
            raise ValueError("a picture cache holds at least one picture")
        self.size = size
        self.stats = CacheStats()
        self._pictures: OrderedDict[PictureKey, bytes] = OrderedDict()
        self._pending: dict[PictureKey, asyncio.Future[bytes]] = {}
        self._owned = executor is None
        self._executor: Executor = executor or ThreadPoolExecutor(workers, thread_name_prefix="picture")
        if self._owned:  # the system fonts read in the pool first, once a process
            self._executor.submit(lettering.warm)

    def __len__(self) -> int:
        return len(self._pictures)

    def __contains__(self, key: object) -> bool:
        return key in self._pictures

    async def board(
        self,
        public: PublicView,
        names: Sequence[str],
        *,
        game_id: int,
        bottom: int,
        you: int | None = None,
        language: str | None = None,
    ) -> bytes:
        """The board of ``public`` as PNG bytes (:func:`bot.pictures.board.board_png`)."""
        if not isinstance(public, PublicView):
            raise TypeError(f"a board picture is drawn from a PublicView, not {type(public).__name__}")
        language = i18n.normalize(language or i18n.current())
        shown = (str(names[0]), str(names[1]))
        key = PictureKey(game_id, public.version, bottom, language, "board", (shown, you))
        return await self.get(key, lambda: board_png(public, shown, bottom=bottom, game_id=game_id, you=you))

    async def hand(
        self,
        cards: Sequence[Card],
        *,
        game_id: int,
        version: int,
        player: int,
        language: str | None = None,
    ) -> bytes:
        """``player``'s hand, the ``cards`` given, as PNG bytes (:func:`bot.pictures.hand.hand_png`)."""
        language = i18n.normalize(language or i18n.current())
        held = tuple(cards)
        key = PictureKey(game_id, version, player, language, "hand", tuple(str(card) for card in held))
        return await self.get(key, lambda: hand_png(held))

    async def seat(
        self,
        public: PublicView,
        names: Sequence[str],
        cards: Sequence[Card],
        *,
        game_id: int,
        player: int,
        language: str | None = None,
    ) -> bytes:
        """``player``'s own picture: the board from their side, their ``cards`` under it
        (:func:`bot.pictures.seat.seat_png`), for their DM or private reply."""
        if not isinstance(public, PublicView):
            raise TypeError(f"a board picture is drawn from a PublicView, not {type(public).__name__}")
        language = i18n.normalize(language or i18n.current())
        shown = (str(names[0]), str(names[1]))
        held = tuple(cards)
        key = PictureKey(
            game_id, public.version, player, language, "seat", (shown, tuple(str(card) for card in held))
        )
        return await self.get(
            key, lambda: seat_png(public, shown, held, bottom=player, game_id=game_id, you=player)
        )

    async def get(self, key: PictureKey, render: Callable[[], bytes]) -> bytes:
        """The picture of ``key``: kept, being rendered, or ``render()`` now in the pool
        (in ``key.language``)."""
        found = self._pictures.get(key)
        if found is not None:
            self._pictures.move_to_end(key)
            self.stats.hits += 1
            return found
        pending = self._pending.get(key)
        if pending is not None:
            self.stats.hits += 1
            return await asyncio.shield(pending)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes] = loop.create_future()
        self._pending[key] = future
        self.stats.renders += 1
        try:
            data = await loop.run_in_executor(self._executor, _in_language, key.language, render)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._pending[key]
        future.set_result(data)
        self._pictures[key] = data
        while len(self._pictures) > self.size:
            self._pictures.popitem(last=False)
        return data

    def forget(self, game_id: int) -> None:
        """Drop a game's pictures (it is over and announced, say)."""
        for key in [key for key in self._pictures if key.game_id == game_id]:
            del self._pictures[key]

    def close(self) -> None:
        """Shut the cache's own thread pool down (a given executor is the caller's)."""
        if self._owned:
            self._executor.shutdown(wait=False, cancel_futures=True)


def _in_language(language: str, render: Callable[[], bytes]) -> bytes:
    """Run ``render`` in ``language``: a pool thread does not share the caller's context."""
    with i18n.use(language):
        return render()
