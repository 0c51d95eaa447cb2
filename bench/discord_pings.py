"""Benchmark: what a game costs a channel and its players, before and after threads and
pings that count, through simcord.

    python bench/discord_pings.py [--games 8] [--think 40] [--seed 1]

Plays ``--games`` games in one channel, the way members play them: ``/schotten
challenge``, Accept, then every move through the player's DM controls (card, stone,
Play; a claim or an end of turn is one button). Before each turn the player to move
thinks for a random time (exponential, mean ``--think`` seconds, on simcord's clock: no
real waiting), so some turns find the opponent at the table and some find them away.
Each game is played twice, with the same seed, in two configurations:

* before: boards in the channel and a ping at every turn (the classic behaviour:
  the board posted anew with "<@x>, your turn." and the previous one deleted);
* after: the shipped defaults: each game in its own thread, a turn ping only for a
  player who has not used the bot in the last minute, at most one per turn, the board
  in the thread edited in place when nobody is pinged.

It prints, per game (mean and max) and in all: the bot's posts, edits and deletions in
the server (the channel and the games' threads; the DMs are the same in both and
counted apart), the posts in the channel itself, and the pings (a post whose allowed
mentions name a user), with the most pings one player got in one game. The challenge
and its answer are interaction responses (not counted as posts; they are the same in
both). Discord's own "started a thread" line in the channel is not a post of the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord

from bot.app import create_bot
from bot.community.preferences import Preferences
from tests.cogs.helpers import challenge_and_accept, dm_turn

MAX_STEPS = 400  # DM turns a game may take (a game is about 60)


@dataclass
class Counts:
    posts: int = 0  # in the server: the channel and the games' threads
    channel_posts: int = 0  # in the channel itself
    edits: int = 0
    deletions: int = 0
    dm_calls: int = 0
    pings: int = 0
    most_pings: int = 0  # the most one player got in the game
    threads: int = 0
    by_user: Counter[int] = field(default_factory=Counter)


def count(env: Any, since: int, server: set[int], channel_id: int) -> Counts:
    counts = Counts()
    for entry in env.http_requests[since:]:
        parts = entry.path.split("/")
        if len(parts) < 4 or parts[1] != "channels" or parts[3] != "messages":
            if entry.method == "POST" and entry.path.endswith("/threads"):
                counts.threads += 1
            continue
        where = int(parts[2])
        if where not in server:
            counts.dm_calls += 1
            continue
        if entry.method == "POST":
            counts.posts += 1
            counts.channel_posts += where == channel_id
            users = ((entry.json or {}).get("allowed_mentions") or {}).get("users") or []
            counts.by_user.update(int(u) for u in users)
        elif entry.method == "PATCH":
            counts.edits += 1
        elif entry.method == "DELETE":
            counts.deletions += 1
    counts.pings = sum(counts.by_user.values())
    counts.most_pings = max(counts.by_user.values(), default=0)
    return counts


async def play(classic: bool, games: int, think: float, seed: int) -> list[Counts]:
    Preferences.threads_default = not classic
    Preferences.pings_default = "every-turn" if classic else "away"
    bot = create_bot(database=":memory:")
    results = []
    try:
        async with simcord.run(bot) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            for number in range(games):
                rng = random.Random(seed * 1000 + number)
                members = [guild.add_member(env.create_user(f"g{number}p{i}")) for i in (0, 1)]
                since = len(env.http_requests)
                game_id = await challenge_and_accept(env, channel, members[0], members[1])
                by_id = {m.id: m for m in members}
                for _ in range(MAX_STEPS):
                    record = await bot.service.get(game_id)
                    if record.game.is_over:
                        break
                    mover = record.current_user
                    assert mover is not None  # the game is not over
                    await env.advance_time(rng.expovariate(1 / think))
                    await dm_turn(by_id[mover], rng, game_id)
                server = {channel.id} | {thread.id for thread in channel.threads}
                results.append(count(env, since, server, channel.id))
    finally:
        await bot.close()
    return results


def report(name: str, results: list[Counts]) -> None:
    def line(label: str, values: list[int]) -> str:
        mean, most, total = statistics.mean(values), max(values), sum(values)
        return f"  {label:<26} mean {mean:6.1f}  max {most:4d}  total {total:5d}"

    print(f"{name}: {len(results)} games")
    for label, attribute in (
        ("posts (channel + threads)", "posts"),
        ("posts in the channel", "channel_posts"),
        ("edits", "edits"),
        ("deletions", "deletions"),
        ("pings", "pings"),
        ("most pings to one player", "most_pings"),
        ("threads opened", "threads"),
        ("DM calls", "dm_calls"),
    ):
        print(line(label, [getattr(r, attribute) for r in results]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--think", type=float, default=40.0, help="mean seconds a player thinks a turn")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    print(f"{args.games} games, think time exponential with mean {args.think:.0f} s, seed {args.seed}")
    before = asyncio.run(play(True, args.games, args.think, args.seed))
    after = asyncio.run(play(False, args.games, args.think, args.seed))
    report("before (threads off, a ping every turn)", before)
    report("after (a thread per game, pings when away)", after)


if __name__ == "__main__":
    main()
