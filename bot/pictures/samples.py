"""``python -m bot.pictures.samples [--out DIR] [--language LANG]``: the sample pictures
in ``docs/`` (``board-sample.png``, ``hand-sample.png``), drawn from a fixed position, so
that they can be made again after a change to the pictures.

The position shows what the board draws: claimed stones (each player's), Mud and Fog, a
Leader, ruses and a discard, and a last turn (a card played, then a stone claimed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.pictures.board import board_png
from bot.pictures.hand import hand_png
from bot.text import i18n
from rules.cards import parse_card
from rules.game import Game, GameOptions
from rules.moves import Claim, Draw, PlayCard
from rules.positions import position
from rules.view import PublicView

DOCS = Path(__file__).resolve().parents[2] / "docs"
NAMES = ("Alice", "Bob")


def sample_game() -> Game:
    """A game with tactics, half way through; Alice has just played Y6 and claimed 6."""
    game = position(
        options=GameOptions(tactics=True),
        hands=("Y6 P7 O2 B9 R3 Scout ShieldBearer", "G4 R4 B8 P8 O8 Y8 Traitor"),
        sides={
            1: ("R7 R8 R9", "B2 G5 Y1"),
            2: ("O3 O4 P2", "G9 Y9 P9"),
            3: ("B5 B6 B7", "Leader G8"),
            4: ("P5", "O9 R6"),
            5: ("G1 G2", ""),
            6: ("Y4 Y5", "B1 B3 O1"),
            7: ("", "R1 R2"),
            8: ("O6", ""),
        },
        owners={1: 0, 2: 1},
        mud={3: 1},
        fog={4: 0},
        discards=((0, "Redeploy"), (1, "G7")),
        tactics_played=(2, 2),
        current=0,
    )
    game.apply(PlayCard(parse_card("Y6"), 6))
    game.apply(Claim(6))
    game.apply(Draw("clan"))
    return game


def sample_public() -> PublicView:
    return sample_game().public_view()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.pictures.samples", description=__doc__)
    parser.add_argument("--out", type=Path, default=DOCS, help="where to write (default: docs/)")
    parser.add_argument("--language", default="en", help="en, de or fr (default: en)")
    args = parser.parse_args(argv)
    game = sample_game()
    suffix = "" if args.language == "en" else f"-{args.language}"
    with i18n.use(args.language):
        board = board_png(game.public_view(), NAMES, bottom=0, game_id=42)
        hand = hand_png(game.hand(0))
    for name, data in ((f"board-sample{suffix}.png", board), (f"hand-sample{suffix}.png", hand)):
        path = args.out / name
        path.write_bytes(data)
        print(f"wrote {path} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
