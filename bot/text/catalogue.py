"""The message catalogue: every user-facing string of the bot, in one place.

``t(key, **params)`` looks a key up in the current language (:mod:`bot.text.i18n`) and formats
it with ``str.format``. :data:`CATALOGUE` holds the English texts, the source of the
translations in ``bot/text/locale/*.po``; a text that depends on a number is a
:class:`~bot.text.i18n.Plural`. Code never builds user-facing sentences itself.

Engine errors (``rules.errors``) and service errors (``bot.games.errors``) carry a stable
``code``; :func:`error_text` maps them to ``error.<code>`` keys here, so an error is
translated exactly like any other message.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bot.text import i18n
from bot.text.i18n import Plural

log = logging.getLogger(__name__)

CATALOGUE: dict[str, str | Plural] = {
    # ---------------------------------------------------------------- commands
    "cmd.group": "Play Schotten-Totten",
    "cmd.challenge": "Challenge a member to a game of Schotten-Totten",
    "cmd.challenge.opponent": "Who you want to play against",
    "cmd.challenge.tactics": "Play with the ten tactic cards",
    "cmd.challenge.claims": "When stones may be claimed",
    "cmd.challenge.ruleset": "Which deck to play with",
    "cmd.play": "Play a card from your hand at a stone",
    "cmd.play.card": "The card, e.g. R7",
    "cmd.play.stone": "The stone, 1-9",
    "cmd.claim": "Claim a stone",
    "cmd.claim.stone": "The stone to claim, 1-9",
    "cmd.pass": "Pass when you cannot play a card",
    "cmd.hand": "Show your hand (only you can see it)",
    "cmd.board": "Show the board of a game",
    "cmd.resign": "Resign a game",
    "cmd.games": "List your active games",
    "cmd.rules": "How to play, and the decisions this bot made",
    "cmd.rules.topic": "Which part of the rules",
    "cmd.game": "The game id, when you play more than one",
    "choice.claims.anytime": "anytime (standard)",
    "choice.claims.turn_start": "turn start (advanced)",
    "choice.ruleset.schotten_totten": "Schotten-Totten",
    "choice.ruleset.battle_line": "Battle Line",
    # -------------------------------------------------------------- challenges
    "challenge.message": (
        "{opponent}, {challenger} challenges you to a game of {ruleset}{variant}.\n"
        "The challenge expires {expires}."
    ),
    "challenge.variant.tactics": " with tactic cards",
    "challenge.variant.turn_start": " (claims at turn start)",
    "challenge.variant.both": " with tactic cards (claims at turn start)",
    "challenge.accept": "Accept",
    "challenge.decline": "Decline",
    "challenge.accepted": "{opponent} accepted {challenger}'s challenge. Game #{game_id} has started.",
    "challenge.declined": "{opponent} declined {challenger}'s challenge.",
    "challenge.expired": "{challenger}'s challenge to {opponent} has expired.",
    "challenge.withdrawn": "{challenger} withdrew the challenge.",
    "challenge.sent": "Challenge sent.",
    # ------------------------------------------------------------------- board
    "board.title": "Game #{game_id}: {ruleset}",
    "board.hand_size": Plural("{name} ({cards} card)", "{name} ({cards} cards)", count="cards"),
    "board.deck": "Deck: {clan}",
    "board.decks": "Decks: clan {clan}, tactic {tactic}",
    "board.turn": "Turn: {name}",
    "board.last": "Last: {text}",
    "board.legend": "^ {top}  v {bottom}",
    "board.terrain": "M = Mud, F = Fog",
    "board.your_turn": "{mention}, your turn.",
    "board.show_hand": "Show my hand",
    "board.over": "Game over: {result}",
    # Last-move lines (public: never a drawn card).
    "move.play": "{name} played {card} at {stone}",
    "move.claim": "{name} claimed stone {stone}",
    "move.pass": "{name} passed",
    "move.draw.clan": "{name} drew a card",
    "move.draw.tactic": "{name} drew a tactic card",
    "move.draw.none": "{name} ended their turn (both decks are empty)",
    "move.resign": "{name} resigned",
    "move.forfeit": "{name} ran out of time",
    "move.withdraw": "{name} withdrew from the tournament",
    "move.kick": "{name} was removed from the tournament",
    # ---------------------------------------------------------------- results
    "result.win.three_adjacent": "{winner} wins with three adjacent stones.",
    "result.win.five_stones": "{winner} wins with five stones.",
    "result.win.both_passed": "Both players passed; {winner} wins with more stones ({n0}-{n1}).",
    "result.win.resigned": "{loser} resigned; {winner} wins.",
    "result.win.timeout": "{loser} ran out of time; {winner} wins.",
    "result.win.withdrawn": "{loser} withdrew from the tournament; {winner} wins.",
    "result.win.kicked": "{loser} was removed from the tournament; {winner} wins.",
    "result.draw": "Both players passed with equal stones: the game is a draw.",
    "announce.claim": "{name} claims stone {stone}.",
    "announce.end": "Game #{game_id} is over. {result}",
    # -------------------------------------------------------------------- hand
    "hand.title": "Game #{game_id} against {opponent}",
    "hand.cards": "Your hand: {cards}",
    "hand.empty": "Your hand is empty.",
    "hand.your_turn": "It is your turn.",
    "hand.their_turn": "Waiting for {opponent}.",
    "hand.opponent_did": "{opponent}: {text}",
    "hand.you_did": "You: {text}",
    "hand.drew": "You drew {card}.",
    "hand.over": "The game is over. {result}",
    "controls.card": "Choose a card",
    "controls.stone": "Choose a stone",
    "controls.stone_option": "Stone {stone}",
    "controls.play": "Play",
    "controls.claim": "Claim {stone}",
    "controls.pass": "Pass",
    "controls.end_turn": "End turn",
    "controls.draw.clan": "Draw a clan card",
    "controls.draw.tactic": "Draw a tactic card",
    "controls.draw.none": "End turn",
    "controls.hint": "Pick a card and a stone, then press Play.",
    "controls.suggest": "Hint",
    "dm.closed": (
        "I can't send you direct messages, so your hand isn't in your DMs. Use the "
        '"Show my hand" button under the board, or allow direct messages from server '
        "members (Server menu > Privacy Settings) and I'll send it there."
    ),
    "dm.failed_public": '{name} doesn\'t accept DMs; the "Show my hand" button under the board works too.',
    # ------------------------------------------------------------------ games
    "games.none": "You have no active games.",
    "games.header": "Your active games:",
    "games.line": "#{game_id} against {opponent} in {place}: {turn}",
    "games.your_turn": "your turn",
    "games.their_turn": "their turn",
    "games.dm_place": "direct messages",
    "games.more": Plural(
        "…and {n} more game (pick it with a command's `game:` option).",
        "…and {n} more games (pick one with a command's `game:` option).",
        count="n",
    ),
    "games.ambiguous_line": "#{game_id} against {opponent}",
    "ok.moved": "Done.",
    "ok.resigned": "You resigned game #{game_id}.",
    # ------------------------------------------------------------------ saved, not all shown yet
    "saved.move": "Your move in game #{game_id} is saved; the board will catch up.",
    "saved.resign": "You resigned game #{game_id}; the board will catch up.",
    "saved.accepted": "Challenge accepted: game #{game_id} is made; its board and your hand will follow.",
    "saved.practice": "Your practice game #{game_id} is made; its board and your hand will follow.",
    "saved.challenge": "Your challenge is saved, but I could not post it just now; it expires by itself.",
    "saved.declined": "You declined the challenge.",
    "saved.choice": "Your choice is saved.",
    "saved.not_shown": "Not every message could be updated just now.",
    "saved.tournament": "Tournament {name} (#{id}) is created, but I could not post its sign-up just now.",
    "saved.unresigned": (
        "Games {games} could not be resigned just now: their player can still resign them "
        "with /schotten resign, or they end when their time runs out."
    ),
    # ------------------------------------------------------------------ timers
    "timer.reminder": (
        "{mention}, it's your turn in game #{game_id}. You forfeit {deadline} if you don't move."
    ),
    "timer.forfeit": "{name} did not move in time.",
    # ------------------------------------------------------------------ errors
    "error.generic": "Something went wrong on my side. Nothing was changed; please try again.",
    "error.database_unavailable": (
        "The database is unreachable right now; nothing was changed. Try again in a minute."
    ),
    "error.database_outcome_unknown": (
        "The database stopped answering while saving this; it may or may not have been saved. "
        "Check the game in a minute before trying again."
    ),
    "error.rules_error": "That is not allowed.",
    "error.illegal_move": "That move is not allowed now.",
    "error.unknown_notation": (
        'I don\'t know "{text}". Cards are written like R7 (colour R O Y G B P, then the value).'
    ),
    "error.game_over": "That game is over.",
    "error.not_your_turn": "It is not your turn.",
    "error.card_not_in_hand": "You don't have {card} in your hand.",
    "error.no_such_stone": "There is no stone {stone}; stones are numbered 1-9.",
    "error.stone_claimed": "Stone {stone} is already claimed.",
    "error.stone_full": "Your side of stone {stone} is full.",
    "error.side_incomplete": "Your side of stone {stone} is not complete yet.",
    "error.claim_timing": "Claims are only allowed at the start of your turn, before you play a card.",
    "error.wrong_phase": "You can't do that now.",
    "error.cannot_pass": "You can still play a card, so you can't pass.",
    "error.deck_empty": "That deck is empty.",
    "error.tactics_not_in_play": "This game is played without tactic cards.",
    "error.tactic_limit": "You can't play another tactic card until your opponent plays one.",
    "error.second_leader": "You already have a Leader on the table; the second one stays in your hand.",
    "error.bad_target": "That target is not allowed.",
    "error.claim_not_provable": (
        "You can't claim stone {stone} yet: your opponent could still beat it with {counter_example}."
    ),
    "error.claim_lost": "You can't claim stone {stone}: your opponent's side there is stronger.",
    "error.service_error": "That didn't work. Nothing was changed.",
    "error.not_a_player": "You are not a player in that game.",
    "error.game_not_found": "I can't find that game.",
    "error.game_finished": "That game is over.",
    "error.stale_control": "Those controls are from an earlier turn; use the latest message.",
    "error.move_not_saved": "Your move was not saved; nothing changed. Try again.",
    "error.move_unconfirmed": (
        "I couldn't confirm whether your move was saved; check /schotten board in a minute."
    ),
    "error.ambiguous_game": "You have several active games; choose one with the game option:\n{games}",
    "error.no_active_game": "You have no active game here.",
    "error.challenge_self": "You can't challenge yourself.",
    "error.challenge_bot": "You can't challenge a bot.",
    "error.challenge_existing": "You already have a game with {opponent} in this channel.",
    "error.challenge_pending": "You already challenged {opponent} here; wait for an answer.",
    "error.challenge_guild_only": "Challenges are made in a server channel.",
    "error.challenge_not_yours": "This challenge is for {opponent}, not for you.",
    "error.challenge_gone": "This challenge is no longer open.",
    "error.not_a_member": "Pick a member of this server.",
    "error.bad_stone": "Stones are numbered 1-{stones}.",
    "error.choose_first": "Choose a card and a stone first.",
    "error.cooldown": "Slow down a little and try again in {seconds} seconds.",
    # ------------------------------------------------------------------- rules
    "rules.topics": "overview, turn, formations, claims, end, tactics, decisions",
    "rules.overview": (
        "**Schotten-Totten** (Reiner Knizia). Nine boundary stones lie between two clans. "
        "Each player holds 6 cards (54 clan cards: colours R O Y G B P, values 1-9, written R7). "
        "Build a three-card formation on your side of each stone and claim stones; the first "
        "to own three adjacent stones or any five stones wins.\n"
        "Topics: {topics}."
    ),
    "rules.turn": (
        "**A turn**: claim stones (standard: any time before you draw; advanced: only at the "
        "start of your turn), play one card on your side of an unclaimed stone that has fewer "
        "than 3 cards there, then draw (the bot draws for you). If you cannot play a card you "
        "pass.\nCommands: `/schotten play card:R7 stone:3`, `/schotten claim stone:3`, "
        "`/schotten pass`, or the controls in your DM."
    ),
    "rules.formations": (
        "**Formations**, strongest first: colour run (R3 R4 R5), three of a kind (G7 B7 P7), "
        "colour (three of one colour), run (consecutive values), sum. Same formation: the higher "
        "sum wins. Same formation and sum: whoever completed their side first wins. "
        "Values do not wrap: 8-9-1 is not a run."
    ),
    "rules.claims": (
        "**Claims**: your side of the stone must be complete. If your opponent's side is "
        "complete too, the stronger side wins. If not, the claim succeeds only when no way of "
        "completing their side could beat yours, counting only what is on the table: every clan "
        "card not on the table (the deck and both hands, your own included) may still come. "
        "A failed claim changes nothing, and I show you a completion that would beat you."
    ),
    "rules.end": (
        "**End**: the game ends at once when a player owns three adjacent stones or any five "
        "stones. `/schotten resign` gives up; a player who doesn't move in time forfeits."
    ),
    # "rules.tactics" and one topic per tactic card: in the tactics section below.
    "rules.decisions": (
        "**Our decisions** where the rulebook is silent:\n"
        "- If both players pass in a row, every stone that can be decided now is decided and the "
        "game ends: three adjacent or five stones first, otherwise more stones wins, otherwise "
        "a draw.\n"
        "- A claim proof counts every clan card not on the table as possibly still coming, the "
        "claimer's own hand included; unplayed tactic cards are not considered. If too few clan "
        "cards remain to complete the opponent's side, the claim succeeds.\n"
        "- If a side holds more cards than it needs (Mud removed later), its strongest subset "
        "of the needed size counts.\n"
        "- Empty decks are skipped; the game goes on.\n"
        "- Matches (`points:`): each game scores 5 for the winner and 1 per stone for the "
        "loser (a draw: 1 per stone each). The winner of a game starts the next one; after a "
        "draw, the player who did not start the last game starts. If both reach the target "
        "in the same game, the higher score wins; equal scores play another game."
    ),
    # ------------------------------------------------ ratings, stats, matches, rematch
    "cmd.leaderboard": "The best rated players of this server or of everywhere",
    "cmd.leaderboard.scope": "This server's ratings or the global ones",
    "choice.scope.server": "this server",
    "choice.scope.global": "global",
    "cmd.stats": "A player's rating, record, streaks and recent games (only you see it)",
    "cmd.stats.member": "Whose stats (default: yours)",
    "cmd.challenge.points": "Play a match to this many points (winner 5, loser 1 per stone)",
    "leaderboard.title.server": "Leaderboard of {guild}",
    "leaderboard.title.global": "Global leaderboard",
    "leaderboard.col.rank": "#",
    "leaderboard.col.player": "Player",
    "leaderboard.col.rating": "Rating",
    "leaderboard.col.record": "W-L-D",
    "leaderboard.col.games": "Games",
    "leaderboard.page": "Page {page} of {pages}",
    "leaderboard.prev": "Previous",
    "leaderboard.next": "Next",
    "leaderboard.this_server": "this server",
    "leaderboard.where.server": "in this server",
    "leaderboard.where.global": "anywhere",
    "stats.title": "**Stats for {name}**",
    "stats.rating_server": "Rating in this server: {rating} ({games} played)",
    "stats.rating_server_none": "Rating in this server: no games here yet",
    "stats.rating_global": "Global rating: {rating} ({games} played)",
    "stats.record": Plural(
        "Record: {games} game, {wins} won, {losses} lost, {draws} drawn",
        "Record: {games} games, {wins} won, {losses} lost, {draws} drawn",
        count="games",
    ),
    "stats.stones": "Stones won: {stones}",
    "stats.streak": "Winning streak: {current} now, best {best}",
    "stats.recent": "Recent games:",
    "stats.recent_line": "#{game_id} {outcome} against {opponent} ({stones})",
    "stats.outcome.win": "won",
    "stats.outcome.loss": "lost",
    "stats.outcome.draw": "drawn",
    "stats.h2h": "Against you: {name} won {wins}, lost {losses}, drew {draws}",
    "stats.h2h_none": "{name} has not played you yet.",
    "ratings.changes": "Ratings: {changes}",
    "ratings.change": "{name} {after} ({delta:+d})",
    "challenge.variant.match": " (a match to {points} points)",
    "match.score": "Match #{match_id} to {target}: {name0} {score0} - {score1} {name1}",
    "match.next": "Next game of match #{match_id}: game #{game_id}, {name} starts.",
    "match.won": "{name} wins match #{match_id}, {score0} - {score1}!",
    "rematch.button": "Rematch",
    "rematch.message": "{opponent}, {challenger} wants a rematch of game #{game_id}{variant}.\n"
    "The offer expires {expires}.",
    "error.stats_none_here": (
        "{name} hasn't finished a game in this server yet, so there are no stats to show here."
    ),
    "error.stats_none_self_here": (
        "You haven't finished a game in this server yet. Challenge someone with `/schotten challenge`!"
    ),
    "error.stats_none_dm": (
        "You and {name} haven't finished a game together in DMs. "
        "Ask in a server you share to see their games there."
    ),
    "error.stats_none_self_dm": (
        "You haven't finished a game in DMs. Ask in a server to see your games there."
    ),
    "error.not_a_member_here": (
        "That person is not a member of this server, so I show nothing of theirs here."
    ),
    "error.bad_control": "That control is not one of mine, or not for this message. Nothing was changed.",
    "error.control_outdated": "This control is out of date; run the command again.",
    "error.leaderboard_empty": "No games have been finished {where} yet, so there is no leaderboard.",
    "error.leaderboard_server_dm": "There is no server here; try the global leaderboard.",
    "error.rematch_not_player": "Only the two players of game #{game_id} can ask for a rematch.",
    "error.rematch_no_channel": "A rematch is offered in the game's server channel.",
    "error.rematch_match_running": "Match #{match_id} is still going on; finish it first.",
    "error.controls_not_private": "Your hand is shown only in your DMs or in a reply only you can see.",
    "error.game_unreadable": (
        "Game #{game_id} can't be loaded right now: a storage problem on the bot's side, "
        "not something you did. The bot's operator can find it in the log."
    ),
    "error.rematch_in_progress": "Game #{game_id} is still being played; ask for a rematch once it is over.",
    # ------------------------------------------------------------ practice vs the AI
    "cmd.practice": "Play a practice game against me (the AI); it does not count for ratings",
    "cmd.practice.difficulty": "How well I play",
    "choice.level.random": "random (I play any legal move)",
    "choice.level.easy": "easy",
    "choice.level.medium": "medium",
    "choice.level.hard": "hard (I think for up to a second)",
    "level.random": "random",
    "level.easy": "easy",
    "level.medium": "medium",
    "level.hard": "hard",
    "practice.started": (
        "{mention} started a practice game against me ({level}). Game #{game_id} has started; "
        "it does not count for ratings. Stuck? `/schotten hint` shows what I would play."
    ),
    "practice.started_dm": (
        "Game #{game_id} against me ({level}) has started; your hand and the board are in the "
        "next message. It does not count for ratings. Stuck? `/schotten hint` shows what I "
        "would play."
    ),
    "error.practice_existing": "You already have a practice game with me here: game #{game_id}.",
    "cmd.hint": "Ask me what I would play now, and why (only in games against me)",
    "error.hint_vs_ai_only": "Hints are only for games against me: start one with `/schotten practice`.",
    # ------------------------------------------------------------ the operator's limits
    "error.limit_practice_games": Plural(
        "You already have {limit} practice game open (the limit): {game_ids}. "
        "Finish or resign it to start another.",
        "You already have {limit} practice games open (the limit): {game_ids}. "
        "Finish or resign one to start another.",
        count="limit",
    ),
    "error.limit_hints": Plural(
        "You have had {limit} hint in the last minute (the limit). You can ask for another in {seconds} s.",
        "You have had {limit} hints in the last minute (the limit). You can ask for another in {seconds} s.",
        count="limit",
    ),
    "error.limit_open_challenges": Plural(
        "You already have {limit} open challenge (the limit). You can challenge again "
        "once it is answered, or when it expires <t:{until}:R>.",
        "You already have {limit} open challenges (the limit). You can challenge again "
        "once one is answered, or when the first expires <t:{until}:R>.",
        count="limit",
    ),
    "error.limit_channel_challenges": Plural(
        "This channel already has {limit} open challenge (the limit). A new one is possible "
        "once it is answered, or when it expires <t:{until}:R>.",
        "This channel already has {limit} open challenges (the limit). A new one is possible "
        "once one is answered, or when the first expires <t:{until}:R>.",
        count="limit",
    ),
    "error.limit_rechallenge": (
        "You challenged {opponent} a short while ago and got no game. "
        "You can challenge them again <t:{until}:R>."
    ),
    "error.challenge_pending_elsewhere": (
        "You already challenged {opponent} in another channel; wait for an answer there."
    ),
}

# -------------------------------------------------------------- tactics at the table
CATALOGUE.update(
    {
        "cmd.move": "Make any move by its notation, tactic cards too (pick from the suggestions)",
        "cmd.move.text": "The move, e.g. scout, redeploy R7 3 5, deserter Fog 4, draw tactic",
        "cmd.draw": "End your turn by drawing from the deck you choose",
        "cmd.draw.deck": "Which deck to draw from",
        "choice.deck.clan": "clan cards",
        "choice.deck.tactic": "tactic cards",
        # Suggestions of /schotten move (only the caller sees them).
        "choice.move.play": "Play {card} at stone {stone}",
        "choice.move.claim": "Claim stone {stone}",
        "choice.move.pass": "Pass",
        "choice.move.draw.clan": "Draw a clan card",
        "choice.move.draw.tactic": "Draw a tactic card",
        "choice.move.draw.none": "End turn (both decks are empty)",
        "choice.move.scout": "Scout: draw three cards, then put two back",
        "choice.move.return": "Put back {first} and {second} ({second} ends on top)",
        "choice.move.redeploy": "Redeploy: your {card} from stone {from_stone} to stone {to_stone}",
        "choice.move.redeploy_discard": "Redeploy: discard your {card} from stone {from_stone}",
        "choice.move.deserter": "Deserter: discard their {card} at stone {stone}",
        "choice.move.traitor": "Traitor: their {card} from stone {from_stone} to your side of {to_stone}",
        # Hand controls.
        "controls.target.redeploy": "Choose your card to move",
        "controls.target.deserter": "Choose their card to discard",
        "controls.target.traitor": "Choose their clan card to take",
        "controls.target_option": "Stone {stone}: {card}",
        "controls.target_stone": "Stone {stone} ({cards}): choose the card next",
        "controls.dest": "Choose where it goes",
        "controls.dest_discard": "Discard it",
        "controls.play_tactic": "Play {card}",
        "controls.return": "Choose two cards to put back",
        "controls.return_button": "Put back",
        "controls.return_top": "Put back, {card} on top",
        "tactics.hint.leader": "Joker: any colour, any value (one on your side)",
        "tactics.hint.reinforcement": "Morale: a 7 of any colour",
        "tactics.hint.shield_bearer": "Morale: a 1, 2 or 3 of any colour",
        "tactics.hint.fog": "Terrain: only the sum counts at this stone",
        "tactics.hint.mud": "Terrain: 4 cards a side at this stone",
        "tactics.hint.scout": "Ruse: draw 3, put 2 back",
        "tactics.hint.redeploy": "Ruse: move or discard one of your cards",
        "tactics.hint.deserter": "Ruse: discard one of their cards",
        "tactics.hint.traitor": "Ruse: take one of their clan cards",
        # Private lines of the player's own DM.
        "tactics.scout_draw": "Scout: draw {n} more, from the deck of your choice.",
        "tactics.scout_return": (
            "Scout: choose two cards to put back on top of their decks; if both go to the same "
            "deck, the button you press says which one ends on top."
        ),
        "tactics.known": "You put back: {cards}",
        "tactics.known_top": "{card} on top of the {deck} deck",
        "tactics.known_below": "{card} in the {deck} deck, {depth} below the top",
        "tactics.opponent_known": "Your opponent drew what you put back and still holds: {cards}",
        # Public move lines (a Scout return never names its cards).
        "move.scout": "{name} played Scout",
        "move.return": "{name} put two cards back",
        "move.redeploy": "{name} redeployed {card} from {from_stone} to {to_stone}",
        "move.redeploy_discard": "{name} redeployed {card} from {from_stone} to the discard",
        "move.deserter": "{name} sent a Deserter: {card} at {stone} discarded",
        "move.traitor": "{name} turned a Traitor: {card} from {from_stone} to {to_stone}",
        # Board (public).
        "board.hand_tactics": " tactics: {n}",
        "board.ruses": "{name}'s ruses: {cards}",
        "board.discarded": "Discarded: {cards}",
        "error.unknown_move": (
            'I don\'t know the move "{text}". Pick one of the suggestions, or write it like '
            "`play R7 3`, `scout`, `redeploy R7 3 5`, `deserter Fog 4`, `traitor B5 2 6`, "
            "`draw tactic`."
        ),
        # /schotten rules: the tactic cards, one topic each.
        "rules.tactics": (
            "**Tactic cards** (variant, `/schotten challenge tactics:True`): a second deck of 10 "
            "cards. After playing you draw from the deck you choose (two buttons). You may play a "
            "tactic card instead of a clan card, but only while you have not played more tactic "
            "cards than your opponent; a player who cannot play a clan card may pass or play a "
            "tactic card.\n"
            "- Morale (like a clan card, at a stone): Leader x2, Reinforcement, Shield-bearer.\n"
            "- Terrain (at a stone): Fog, Mud.\n"
            "- Ruses (face up beside the deck): Scout, Redeploy, Deserter, Traitor.\n"
            "Pick a tactic card in your DM controls like any card; a ruse then asks for its target "
            "(and where it goes). Without DMs: `/schotten play` for morale and terrain cards, "
            "`/schotten move` for every move (it suggests yours), `/schotten draw deck:`.\n"
            "Each card: `/schotten rules topic:` leader, reinforcement, shield-bearer, fog, mud, "
            "scout, redeploy, deserter, traitor."
        ),
        "rules.leader": (
            "**Leader** (2 cards, morale): played like a clan card on your side of a stone. When "
            "the stone is decided it is the colour and value that suit you best. Only one Leader "
            "may be on your side: once you have played one, the other stays in your hand for good "
            "(even if the first is later discarded)."
        ),
        "rules.reinforcement": (
            "**Reinforcement** (morale): played like a clan card; it is a 7 (8 in Battle Line) of "
            "the colour that suits you best when the stone is decided."
        ),
        "rules.shield-bearer": (
            "**Shield-bearer** (morale): played like a clan card; it is a 1, 2 or 3 of any colour, "
            "whichever suits you best when the stone is decided."
        ),
        "rules.fog": (
            "**Fog** (terrain): placed at an unclaimed stone (choose Fog and a stone). At that "
            "stone formations do not count, only the sum of the values. It belongs to whoever "
            "placed it: their Redeploy can move it, the opponent's Deserter can discard it. "
            "On the board, F after a stone's number."
        ),
        "rules.mud": (
            "**Mud** (terrain): placed at an unclaimed stone. Each side there needs 4 cards and "
            "formations are of 4 cards. If the Mud goes away later, a side with 4 cards counts "
            "its strongest 3. On the board, M after a stone's number."
        ),
        "rules.scout": (
            "**Scout** (ruse): draw 3 cards, from the decks in any mix (a button per draw), then "
            "put 2 cards of your hand back on top of their own decks; that ends your turn. Only "
            "you see what you drew and put back. With the decks nearly empty you draw fewer but "
            "still put 2 back, so Scout can be played only when you will have 2 cards to put back."
        ),
        "rules.redeploy": (
            "**Redeploy** (ruse): take one of your own cards (clan, morale, or a terrain card you "
            "placed) from an unclaimed stone and put it on your side of another unclaimed stone "
            "with a free place (terrain: a stone without that terrain), or discard it face up."
        ),
        "rules.deserter": (
            "**Deserter** (ruse): discard one of your opponent's cards (clan, morale, or a "
            "terrain card they placed) from an unclaimed stone, face up."
        ),
        "rules.traitor": (
            "**Traitor** (ruse): take one of your opponent's clan cards (not a tactic card) from "
            "an unclaimed stone and put it on your side of an unclaimed stone with a free place "
            "(the same stone too)."
        ),
        # The player addressed as "you" (the terminal game names its player "You").
        "result.you_win.three_adjacent": "You win with three adjacent stones.",
        "result.you_win.five_stones": "You win with five stones.",
        "result.you_win.both_passed": "Both players passed; you win with more stones ({n0}-{n1}).",
        "result.you_win.resigned": "{loser} resigned; you win.",
        "result.you_win.timeout": "{loser} ran out of time; you win.",
        "result.you_win.withdrawn": "{loser} withdrew from the tournament; you win.",
        "result.you_win.kicked": "{loser} was removed from the tournament; you win.",
        "board.your_ruses": "Your ruses: {cards}",
        # The player addressed as "you" loses: the results that name the loser.
        "result.you_lose.resigned": "You resigned; {winner} wins.",
        "result.you_lose.timeout": "You ran out of time; {winner} wins.",
        "result.you_lose.withdrawn": "You withdrew from the tournament; {winner} wins.",
        "result.you_lose.kicked": "You were removed from the tournament; {winner} wins.",
        # Moves of the player addressed as "you" (render_move(..., you=)): a sentence of
        # their own, since "Du" or "Toi" in a third-person sentence is wrong.
        "move.play.you": "You played {card} at {stone}",
        "move.claim.you": "You claimed stone {stone}",
        "move.pass.you": "You passed",
        "move.draw.clan.you": "You drew a card",
        "move.draw.tactic.you": "You drew a tactic card",
        "move.draw.none.you": "You ended your turn (both decks are empty)",
        "move.resign.you": "You resigned",
        "move.forfeit.you": "You ran out of time",
        "move.withdraw.you": "You withdrew from the tournament",
        "move.kick.you": "You were removed from the tournament",
        "move.scout.you": "You played Scout",
        "move.return.you": "You put two cards back",
        "move.redeploy.you": "You redeployed {card} from {from_stone} to {to_stone}",
        "move.redeploy_discard.you": "You redeployed {card} from {from_stone} to the discard",
        "move.deserter.you": "You sent a Deserter: {card} at {stone} discarded",
        "move.traitor.you": "You turned a Traitor: {card} from {from_stone} to {to_stone}",
    }
)

# ------------------------------------------------ game records: history, replay, export
CATALOGUE.update(
    {
        "cmd.history": "A member's finished games in this server, newest first (only you see it)",
        "cmd.history.member": "Whose games (default: yours)",
        "cmd.replay": "Step through a finished game move by move (only you see it)",
        "cmd.replay.game": "The game's number (see /schotten history)",
        "cmd.replay.step": "Start at this step (0: the deal)",
        "cmd.export": "Download a finished game as a text file in the move notation",
        "history.title": "**Finished games of {name}** ({total})",
        "history.line": (
            "`#{game_id}` {date}: {outcome} against {opponent}, {stones}, {reason}{rating}{place}"
        ),
        "history.outcome.win": "**won**",
        "history.outcome.loss": "**lost**",
        "history.outcome.draw": "**drew**",
        "history.reason.three_adjacent": "three adjacent stones",
        "history.reason.five_stones": "five stones",
        "history.reason.both_passed": "both passed",
        "history.reason.resigned": "by resignation",
        "history.reason.timeout": "on time",
        "history.reason.withdrawn": "by withdrawal from the tournament",
        "history.reason.kicked": "by removal from the tournament",
        "history.rating": ", rating {delta}",
        "history.unrated": ", unrated",
        "history.place.dm": " (in DMs)",
        "history.page": "Page {page} of {pages}",
        "history.hint": (
            "`/schotten replay game:` steps through a game, `/schotten export game:` downloads it."
        ),
        "history.prev": "Previous",
        "history.next": "Next",
        "replay.title": "**Replay of game #{game_id}**: {name0} against {name1}, {ruleset}{variant}",
        "replay.deal": "Step 0 of {steps}: the deal. {name} moves first.",
        "replay.step": "Step {step} of {steps}: {move}",
        "replay.hand": "{name}'s hand: {cards}",
        "replay.hand_empty": "{name}'s hand is empty.",
        "replay.hands_note": "The game is over, so both hands are shown.",
        "replay.first": "First",
        "replay.back": "Back",
        "replay.forward": "Forward",
        "replay.last": "Last",
        "export.done": (
            "Game #{game_id} in the move notation. To step through it without Discord: "
            '`make play ARGS="--replay {filename}"`.'
        ),
        "error.history_none_here": "{name} hasn't finished a game in this server yet.",
        "error.history_none_self_here": "You haven't finished a game in this server yet.",
        "error.history_none_dm": (
            "You and {name} haven't finished a game together in DMs. "
            "Ask in a server you share to see their games there."
        ),
        "error.history_none_self_dm": (
            "You haven't finished a game in DMs. Ask in a server to see your games there."
        ),
        "error.record_in_progress": (
            "Game #{game_id} is still being played. Its replay and its record open once it is over."
        ),
    }
)

# Engine/service error code -> catalogue key, for codes whose key is not simply
# ``error.<code>`` (kept here so a translation only ever edits this module).
ERROR_ALIASES: dict[str, str] = {}


def t(key: str, /, **params: Any) -> str:
    """The text for ``key`` in the current language, formatted with ``params``.

    A missing key or parameter is a bug, but it should not crash an interaction: it is
    logged and the key itself (or the unformatted text) is returned.
    """
    try:
        english = CATALOGUE[key]
    except KeyError:
        log.error("missing catalogue key %r", key)
        return key
    template = _template(key, english, params)
    if not params:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        log.error("bad parameters for catalogue key %r: %s", key, sorted(params))
        return template


def t_in(language: str, key: str, /, **params: Any) -> str:
    """:func:`t` in ``language``, whatever the current one is."""
    with i18n.use(language):
        return t(key, **params)


def _template(key: str, english: str | Plural, params: dict[str, Any]) -> str:
    translation = i18n.translated(key, i18n.current())
    if not isinstance(english, Plural):
        return translation.forms[0] if translation is not None else english
    n = params.get(english.count)
    count = n if isinstance(n, int) else 0
    if translation is not None:
        return translation.forms[min(translation.plural(count), len(translation.forms) - 1)]
    return english.one if count == 1 else english.other


def error_text(error: BaseException, *, resolve: Callable[[object], object] | None = None) -> str:
    """Translate an engine or service error by its ``code`` (and ``params``);
    ``resolve`` may replace parameter values first (a user id by their name).

    Errors without a known code get the generic text: exception messages are never
    shown to users (they are English and might name things the user must not see).
    """
    code = getattr(error, "code", None)
    if not isinstance(code, str):
        return t("error.generic")
    key = ERROR_ALIASES.get(code, f"error.{code}")
    if key not in CATALOGUE:
        log.warning("no catalogue text for error code %r", code)
        return t("error.generic")
    params = dict(getattr(error, "params", None) or {})
    params = {k: _plain(resolve(v) if resolve else v) for k, v in params.items()}
    return t(key, **params)


MAX_ECHO = 60  # characters of what a user typed that an error repeats


def _plain(value: Any) -> Any:
    """Cards and card tuples as their notation; text a user may have typed cut short."""
    if isinstance(value, (tuple, list)):
        value = " ".join(str(v) for v in value)
    if isinstance(value, str) and len(value) > MAX_ECHO:
        return value[: MAX_ECHO - 1] + "…"
    return value


# ------------------------------------------------------------------- card notation
# A colour is one letter and a tactic card one word: players type what they see, and a
# board column holds three characters (a letter and a value up to 10). Every letter of
# a language must differ from the others (see bot/text/notation.py).
CATALOGUE.update(
    {
        "card.colour.R": "R",
        "card.colour.O": "O",
        "card.colour.Y": "Y",
        "card.colour.G": "G",
        "card.colour.B": "B",
        "card.colour.P": "P",
        "card.tactic.leader": "Leader",
        "card.tactic.reinforcement": "Reinforcement",
        "card.tactic.shield_bearer": "ShieldBearer",
        "card.tactic.fog": "Fog",
        "card.tactic.mud": "Mud",
        "card.tactic.scout": "Scout",
        "card.tactic.redeploy": "Redeploy",
        "card.tactic.deserter": "Deserter",
        "card.tactic.traitor": "Traitor",
        "card.short.leader": "Ldr",
        "card.short.reinforcement": "Rnf",
        "card.short.shield_bearer": "Shb",
        "card.short.fog": "Fog",
        "card.short.mud": "Mud",
        "card.short.scout": "Sct",
        "card.short.redeploy": "Rdp",
        "card.short.deserter": "Dsr",
        "card.short.traitor": "Trt",
    }
)

# ------------------------------------------------------------- slash command names
# Discord shows these in its command picker, each in the user's language. A name is
# lowercase letters, digits, "-" or "_", at most 32 characters, no spaces.
CATALOGUE.update(
    {
        "cmd.name.schotten": "schotten",
        "cmd.name.challenge": "challenge",
        "cmd.name.practice": "practice",
        "cmd.name.hint": "hint",
        "cmd.name.play": "play",
        "cmd.name.claim": "claim",
        "cmd.name.pass": "pass",
        "cmd.name.move": "move",
        "cmd.name.draw": "draw",
        "cmd.name.resign": "resign",
        "cmd.name.hand": "hand",
        "cmd.name.board": "board",
        "cmd.name.games": "games",
        "cmd.name.rules": "rules",
        "cmd.name.leaderboard": "leaderboard",
        "cmd.name.stats": "stats",
        "cmd.name.history": "history",
        "cmd.name.replay": "replay",
        "cmd.name.export": "export",
        "cmd.name.web": "web",
        "cmd.name.language": "language",
        "cmd.name.style": "style",
        "opt.opponent": "opponent",
        "opt.tactics": "tactics",
        "opt.claims": "claims",
        "opt.ruleset": "ruleset",
        "opt.points": "points",
        "opt.difficulty": "difficulty",
        "opt.card": "card",
        "opt.stone": "stone",
        "opt.game": "game",
        "opt.text": "text",
        "opt.deck": "deck",
        "opt.topic": "topic",
        "opt.scope": "scope",
        "opt.member": "member",
        "opt.step": "step",
        "opt.links": "links",
        "opt.language": "language",
        "opt.server": "server",
        "opt.board": "board",
        "choice.topic.overview": "overview",
        "choice.topic.turn": "turn",
        "choice.topic.formations": "formations",
        "choice.topic.claims": "claims",
        "choice.topic.end": "end",
        "choice.topic.tactics": "tactics",
        "choice.topic.decisions": "decisions",
        "choice.topic.leader": "leader",
        "choice.topic.reinforcement": "reinforcement",
        "choice.topic.shield-bearer": "shield-bearer",
        "choice.topic.fog": "fog",
        "choice.topic.mud": "mud",
        "choice.topic.scout": "scout",
        "choice.topic.redeploy": "redeploy",
        "choice.topic.deserter": "deserter",
        "choice.topic.traitor": "traitor",
        # /schotten language
        "cmd.language": "Choose the language the bot speaks to you (or, for this server, in its channels)",
        "cmd.language.language": "The language; auto follows your Discord language (or the server's)",
        "cmd.language.server": "Set the language of this server's channel messages (needs Manage Server)",
        "choice.language.auto": "auto (Discord's setting)",
        "choice.language.en": "English",
        "choice.language.de": "Deutsch",
        "choice.language.fr": "Français",
        "language.name.en": "English",
        "language.name.de": "Deutsch",
        "language.name.fr": "Français",
        "language.set_me": "From now on I speak {language} to you.",
        "language.set_me_auto": "From now on I speak to you in your Discord language ({language}).",
        "language.set_server": "This server's game messages are now in {language}.",
        "language.set_server_auto": (
            "This server's game messages now follow its Discord language ({language})."
        ),
        "error.language_manage_server": "Only members who may manage this server can set its language.",
        "error.language_server_dm": "A server's language is set in one of its channels.",
        # /schotten style
        "cmd.style": "Show boards as text or as pictures (to you, or in this server's channels)",
        "cmd.style.board": (
            "text: the board in characters, as always; picture: an image, the text a click away"
        ),
        "cmd.style.server": "Set the style of this server's channel boards (needs Manage Server)",
        "choice.style.text": "text",
        "choice.style.picture": "picture",
        "style.set_me.text": "From now on your DMs and private replies show boards as text.",
        "style.set_me.picture": (
            "From now on your DMs and private replies show the board and your hand as a picture."
            " The text is one click away: Show as text."
        ),
        "style.set_server.text": "This server's channel boards are now shown as text.",
        "style.set_server.picture": (
            "This server's channel boards are now shown as pictures, the text one click away (Show as text)."
        ),
        "error.style_manage_server": "Only members who may manage this server can set its board style.",
        "error.style_server_dm": "A server's board style is set in one of its channels.",
        # /schotten settings: a member's turn pings, a server's game threads
        "cmd.name.settings": "settings",
        "opt.threads": "threads",
        "opt.pings": "pings",
        "cmd.settings": "Your turn pings, and this server's game threads (Manage Server); none: show them",
        "cmd.settings.threads": (
            "on: each game in its own thread (where I may create threads); off: boards in the channel"
        ),
        "cmd.settings.pings": "When I ping you for your turn: every turn, only when you are away, or never",
        "choice.threads.on": "on",
        "choice.threads.off": "off",
        "choice.pings.every-turn": "every turn",
        "choice.pings.away": "only when I am away",
        "choice.pings.never": "never",
        "settings.pings.every-turn": "I will ping you at each of your turns.",
        "settings.pings.away": (
            "I will ping you for your turn only when you have not used the bot in the last minute"
            " (at most once a turn)."
        ),
        "settings.pings.never": (
            "I will not ping you for your turns any more: your DM still says when it is your turn."
        ),
        "settings.threads.on": (
            "Each new game in this server gets its own thread: the board, its turn pings and the"
            " game's talk. The channel keeps the challenge, the start and the result."
        ),
        "settings.threads.on_not_here": (
            "I may not create threads in this channel (I need Create Public Threads and Send Messages"
            " in Threads): games here stay in the channel until I may."
        ),
        "settings.threads.off": "New games in this server show their board in the channel.",
        "settings.current": "Your turn pings: {pings}.",
        "settings.current_server": "This server's game threads: {threads}.",
        "settings.state.on": "on (where I may create threads)",
        "settings.state.off": "off (boards in the channel)",
        "error.settings_manage_server": "Only members who may manage this server can set its game threads.",
        "error.settings_server_dm": "A server's game threads are set in one of its channels.",
        "thread.link": "The game's thread: {thread}",
    }
)

# ------------------------------------------------------------------ tournaments
CATALOGUE.update(
    {
        "cmd.name.tournament": "tournament",
        "cmd.name.create": "create",
        "cmd.name.start": "start",
        "cmd.name.standings": "standings",
        "cmd.name.leave": "leave",
        "cmd.name.kick": "kick",
        "cmd.name.cancel": "cancel",
        "cmd.name.tournaments": "tournaments",
        "opt.name": "name",
        "opt.format": "format",
        "opt.rounds": "rounds",
        "opt.best_of": "best_of",
        "opt.turn_time": "turn_time",
        "opt.max_players": "max_players",
        "opt.tournament": "tournament",
        "cmd.tournament": "Tournaments: Swiss, round robin or knockout",
        "cmd.tournament.create": (
            "Open a tournament for sign-up in this channel (Manage Server or Manage Events)"
        ),
        "cmd.tournament.name": "The tournament's name (up to 100 characters)",
        "cmd.tournament.format": "Swiss, round robin or knockout",
        "cmd.tournament.rounds": "Swiss only: the number of rounds (default: enough for a winner)",
        "cmd.tournament.best_of": "Knockout only: games per tie (1, 3 or 5)",
        "cmd.tournament.turn_time": "Minutes per turn (default: the bot's turn time)",
        "cmd.tournament.max_players": "The most players who may join",
        "cmd.tournament.start": "Close sign-up and start round 1 (the organiser or Manage Server)",
        "cmd.tournament.id": "Which tournament (default: the one of this channel, else the only one)",
        "cmd.tournament.standings": "Show a tournament's standings or bracket",
        "cmd.tournament.leave": "Leave a tournament (a game in progress is lost)",
        "cmd.tournament.kick": "Remove a player from a tournament (the organiser or Manage Server)",
        "cmd.tournament.member": "The player to remove",
        "cmd.tournament.cancel": "Cancel a tournament (the organiser or Manage Server)",
        "cmd.tournaments": "This server's tournaments: open, running and finished",
        "choice.format.swiss": "Swiss",
        "choice.format.round-robin": "round robin",
        "choice.format.knockout": "knockout",
        "tournament.format.swiss": "Swiss",
        "tournament.format.round-robin": "round robin",
        "tournament.format.knockout": "knockout",
        "tournament.title": "Tournament #{id} **{name}** ({format})",
        "tournament.details": "Organiser: {organiser}. {turn_time} per turn.",
        "tournament.best_of": " Ties: best of {best_of}.",
        "tournament.rounds": Plural(" {rounds} round.", " {rounds} rounds.", count="rounds"),
        "tournament.max": "\nAt most {limit} players.",
        "tournament.nobody": "nobody yet",
        "tournament.more": " and {count} more",
        "tournament.signup": (
            "{title}\n{details}\nSign up with the buttons below.\nPlayers ({count}): {players}"
        ),
        "tournament.signup_running": (
            "{title}\n{details}\nSign-up is closed: the tournament is on.\nPlayers ({count}): {players}"
        ),
        "tournament.signup_finished": (
            "{title}\n{details}\nThe tournament is over.\nPlayers ({count}): {players}"
        ),
        "tournament.signup_cancelled": (
            "{title}\n{details}\nThe tournament was cancelled.\nPlayers ({count}): {players}"
        ),
        "tournament.join": "Join",
        "tournament.leave": "Leave",
        "tournament.joined": "You joined {title}.",
        "tournament.left": "You left {title}.",
        "tournament.kicked": "{member} was removed from {title}.",
        "tournament.started": "{title} has started.",
        "tournament.cancelled": "You cancelled {title}.",
        "tournament.cancelled_public": (
            "{title} was cancelled. Games in progress go on as casual games, not rated."
        ),
        "tournament.list_none": "This server has no tournaments.",
        "tournament.list_header": "Tournaments of this server:",
        "tournament.list_line": "{title}: {state}, in {channel}",
        "tournament.status.open": "open for sign-up",
        "tournament.status.running": "round {round} of {rounds}",
        "tournament.status.finished": "finished",
        "tournament.status.cancelled": "cancelled",
        "tournament.standings_none": "{title}: standings (no round is over yet)",
        "tournament.standings_after": "{title}: standings after round {round}",
        "tournament.standings_final": "{title}: final standings",
        "tournament.bracket_none": "{title}: bracket (no round is over yet)",
        "tournament.bracket_after": "{title}: bracket after round {round}",
        "tournament.bracket_final": "{title}: final bracket",
        "tournament.standings_moved": "{title}: these standings are out of date; the latest: {link}",
        "tournament.col.points": "Pts",
        "tournament.col.buchholz": "BH",
        "tournament.col.direct": "DE",
        "tournament.col.sb": "SB",
        "tournament.col.stones": "St",
        "tournament.legend.swiss": (
            "Pts points (win 1, draw ½, bye 1) · BH Buchholz: opponents' points, lowest left out ·"
            " SB Sonneborn-Berger: points of the opponents beaten, half of those drawn · St stones won"
            " · a shared number: tied on every column · - withdrew · x removed"
        ),
        "tournament.legend.round-robin": (
            "Pts points (win 1, draw ½, bye 1) · DE direct encounter: points in the games among"
            " those tied on points · SB Sonneborn-Berger: points of the opponents beaten, half of"
            " those drawn · St stones won · a shared number: tied on every column · - withdrew ·"
            " x removed"
        ),
        "tournament.legend.knockout": (
            "R1, R2, ...: the rounds · * went through · the score: games won in the tie"
        ),
        "tournament.bye": "bye",
        "tournament.round": "{title}: round {round} of {rounds}.",
        "tournament.round_game": "{white} against {black}: game #{game_id}",
        "tournament.round_bye": "{player} has a bye.",
        "tournament.round_walkover": "{player} goes through without a game.",
        "tournament.podium": "{title} is over. The podium:",
        "tournament.player": "{name}",
        "tournament.player_withdrawn": "{name} (withdrew)",
        "tournament.player_kicked": "{name} (removed)",
        "tournament.choice": "#{id} {name} ({status})",
        "tournament.list_more": Plural("… and {n} more tournament", "… and {n} more tournaments"),
        "tournament.kicked_dm": "You were removed from {title} by its organiser.",
        "tournament.cancelled_dm": (
            "{title} was cancelled. Your game #{game_id} goes on as a casual game, not rated:"
            " play it out or resign it."
        ),
        "tournament.label": "{title}, round {round} of {rounds}",
        "tournament.deadline": "Turn ends {deadline} ({turn_time} per turn).",
        "duration.minutes": Plural("{n} minute", "{n} minutes"),
        "duration.hours": Plural("{n} hour", "{n} hours"),
        "duration.days": Plural("{n} day", "{n} days"),
        "error.tournament_name_empty": "A tournament needs a name.",
        "error.tournament_name_long": "A tournament's name has at most {limit} characters.",
        "error.tournament_format": "The format is Swiss, round robin or knockout.",
        "error.tournament_rounds_swiss": "Only a Swiss tournament takes a number of rounds.",
        "error.tournament_rounds": "A Swiss tournament has 1 to {limit} rounds.",
        "error.tournament_best_of_knockout": "Only a knockout takes a number of games per tie.",
        "error.tournament_best_of": "A knockout tie is best of {choices} games.",
        "error.tournament_turn_time": "A turn lasts {low} to {high} minutes.",
        "error.tournament_max_players": "The most players must be between {low} and {high}.",
        "error.tournament_not_found": "There is no tournament #{tournament_id} on this server.",
        "error.tournament_guild_only": "Tournaments are played in a server's channel.",
        "error.tournament_none": "There is no open or running tournament on this server.",
        "error.tournament_which": "Several tournaments are open or running ({ids}): say which one.",
        "error.tournament_closed": "Sign-up for {name} is closed.",
        "error.tournament_kicked": "You were removed from {name}.",
        "error.tournament_joined": "You are in {name} already.",
        "error.tournament_full": "{name} is full ({limit} players).",
        "error.tournament_not_entrant": "That player is not in {name}.",
        "error.tournament_over": "{name} is over.",
        "error.tournament_cancelled": "{name} was cancelled.",
        "error.tournament_cap": Plural(
            "This server has {limit} tournament open or running, the most it may have: finish or cancel"
            " it first.",
            "This server has {limit} tournaments open or running, the most it may have: finish or cancel one"
            " first.",
            count="limit",
        ),
        "error.tournament_not_organiser": (
            "Only the organiser of {name} or members who may manage this server can do that."
        ),
        "error.tournament_started": "{name} has started already.",
        "error.tournament_too_few": "{count} players have joined {name}; it needs at least {needed}.",
        "error.tournament_busy": "Players are joining and leaving too fast; try again.",
        "error.tournament_permission": (
            "Only members who may manage this server or its events can create a tournament."
        ),
    }
)

# ------------------------------------------------------------- the terminal game
CATALOGUE.update(
    {
        "terminal.help": (
            "Moves (stones are 1-9):\n"
            "  R7 3  or  play R7 3      play a card at a stone (Leader 5, Fog 2 ...)\n"
            "  c3  or  claim 3          claim a stone\n"
            "  d  or  draw [clan|tactic] draw (end of turn)\n"
            "  p  or  pass              pass when you cannot play\n"
            "  scout / return R7 Fog / redeploy R7 3 5 / deserter R7 3 / traitor R7 3 5\n"
            "Other: board, hand, moves (your legal moves), hint (the hard AI's suggestion), help, quit"
        ),
        "terminal.you": "You",
        # The board's marks and abbreviations (help, and a line under the board).
        "legend.board": (
            "On the board:\n"
            "  ^3, v3: stone 3 belongs to the player above (^) or below (v)\n"
            "  3M, 3F: Mud (M) or Fog (F) at stone 3\n"
            "  .: an empty place\n"
            "  {example}: a clan card, colour letter and value\n"
            "  {colours}\n"
            "  {morale}\n"
            '  "{tactics}" after a name: how many tactic cards that player has played'
        ),
        "legend.abbreviation": "{short} = {name}",
        "legend.on_board": "On the board: {cards}",
        "legend.colour.R": "red",
        "legend.colour.O": "orange",
        "legend.colour.Y": "yellow",
        "legend.colour.G": "green",
        "legend.colour.B": "blue",
        "legend.colour.P": "purple",
        "terminal.ai": "AI ({level})",
        "terminal.player": "Player {n}",
        "terminal.welcome": "Schotten-Totten, seed {seed}. Type 'help' for the commands.",
        "terminal.bye": "Bye.",
        "terminal.hand": "Your hand: {cards}",
        "terminal.can_claim": "You can claim: {stones}",
        "terminal.resigned": "{name} resigned.",
        "terminal.resigned.you": "You resigned.",
        "terminal.unknown": "I don't understand {text}. Try 'R7 3', 'c3', 'd', or 'help'.",
        "terminal.not_allowed": "Not allowed: {reason}",
        "terminal.drew": "You drew {card}.",
        "terminal.stone_to": "Stone {stone} goes to {name}.",
        "terminal.stone_to.you": "Stone {stone} goes to you.",
        "terminal.legal_moves": "Legal moves: {moves}",
        "terminal.play_at": "play {card} at {stones}",
        "terminal.say_deck": "say 'draw clan' or 'draw tactic'",
        "terminal.which_deck": "Which deck? Say 'draw clan' (or 'd c') or 'draw tactic' (or 'd t').",
        "terminal.scout_return": (
            "Scout: put two cards from your hand back on their decks, e.g. 'return R7 Fog' "
            "(the second ends on top)."
        ),
        "terminal.return_any": "return any two of {cards}",
        "terminal.replay_help": (
            "Enter or n: next move    b: back    s: start    e: end    <number>: go to that step\n"
            "f: turn the board round  h: help   q: quit"
        ),
        "terminal.replay_title": "Replay of game{game_id}: {name0} against {name1}, {steps} steps.",
        "terminal.replay_empty": "(empty)",
        "terminal.replay_last": "That was the last move. b: back, s: start, q: quit.",
        "terminal.replay_unknown": "I don't understand {text}. {help}",
        "terminal.cannot_read": "error: cannot read {path}: {reason}",
        "terminal.not_a_record": "error: {path} is not a game record we can replay: {reason}",
    }
)

# ------------------------------------------------------------ the AI's hints
CATALOGUE.update(
    {
        "hint.line": "Hint: {move} - {reason}{chance}.",
        "hint.chance": " (your chances after it: about {chance})",
        "hint.reason.claim": "stone {stone} is provably yours",
        "hint.reason.completes_colour_run": (
            "{card} completes a colour run at stone {stone}: {chance}% to win it"
        ),
        "hint.reason.completes_three_of_a_kind": (
            "{card} completes three of a kind at stone {stone}: {chance}% to win it"
        ),
        "hint.reason.completes_colour": "{card} completes a colour at stone {stone}: {chance}% to win it",
        "hint.reason.completes_run": "{card} completes a run at stone {stone}: {chance}% to win it",
        "hint.reason.completes_sum": "{card} completes stone {stone}: {chance}% to win it",
        "hint.reason.keeps_colour_run": (
            "{card} keeps a colour run at stone {stone} alive: {chance}% to win it"
        ),
        "hint.reason.keeps_three_of_a_kind": (
            "{card} keeps three of a kind at stone {stone} alive: {chance}% to win it"
        ),
        "hint.reason.keeps_colour": "{card} keeps a colour at stone {stone} alive: {chance}% to win it",
        "hint.reason.keeps_run": "{card} keeps a run at stone {stone} alive: {chance}% to win it",
        "hint.reason.opens_stone": "{card} opens stone {stone}: {chance}% to win it",
        "hint.reason.dumps_card": "{card} costs least at stone {stone} ({chance}% to win it)",
        "hint.reason.plays_joker": "{card} is worth most at stone {stone}: {chance}% to win it",
        "hint.reason.fog": "under Fog only the sum counts at stone {stone}",
        "hint.reason.mud": "Mud makes stone {stone} a four-card fight",
        "hint.reason.traitor": "{card} is worth more on your side at stone {to_stone}",
        "hint.reason.deserter": "without {card} stone {stone} turns",
        "hint.reason.redeploy": "{card} does more elsewhere",
        "hint.reason.scout": "a look at three cards is worth a turn",
        "hint.reason.scout_return": "you need those cards least",
        "hint.reason.draw_clan": "you need clan cards",
        "hint.reason.draw_tactic": "a tactic card is worth more now",
        "hint.reason.pass": "you have nothing to play",
        "hint.reason.only_move": "there is nothing else",
    }
)

# ------------------------------------------------- the board and hand as pictures
# (bot/pictures/: short labels beside a player's name, on a stone, under the cards)
CATALOGUE.update(
    {
        "picture.cards": Plural("{n} card in hand", "{n} cards in hand"),
        "picture.tactics": Plural("{n} tactic played", "{n} tactics played"),
        "picture.stones": Plural("{n} stone", "{n} stones"),
        "picture.to_play": "to play",
        "picture.winner": "winner",
        "picture.empty_hand": "No cards in hand",
        # on the messages that carry a picture
        "picture.show_text": "Show as text",
        "picture.board_alt": "The board of game #{game_id}",
        "picture.seat_alt": "The board of game #{game_id} from your side, and your hand",
        "picture.replay_alt": "The board of game #{game_id} at step {step}",
    }
)

# ------------------------------------------------------------- the web pages
# (bot/web/: the live game, the replay and the server's ladder in a browser; the link
# buttons under Discord messages and /schotten web)
CATALOGUE.update(
    {
        "web.site": "Schotten-Totten",
        "web.game_title": "Game #{game_id}: {name0} against {name1}",
        "web.live": "Live",
        "web.finished": "Finished",
        "web.to_play": "{name} to play",
        "web.player": "Player",
        "web.rating": "Rating",
        "web.stones": "Stones",
        "web.unrated": "unrated",
        "web.moves": "Moves",
        "web.no_moves": "No moves yet.",
        "web.board_alt": "The board of game #{game_id}",
        "web.live_note": "This page follows the game as it is played.",
        "web.needs_script": "Reload the page to see the latest moves.",
        "web.replay_title": "Replay of game #{game_id}: {name0} against {name1}",
        "web.step": "Step {step} of {steps}",
        "web.first": "Start",
        "web.back": "Back",
        "web.forward": "Forward",
        "web.last": "End",
        "web.keys": "Arrow keys: step back and forward.",
        "web.hand": "{name}'s hand",
        "web.empty_hand": "no cards",
        "web.download": "Download the record file",
        "web.open_replay": "Replay this game",
        "web.ladder_title": "Ladder",
        "web.rank": "Rank",
        "web.record": "Won-lost-drawn",
        "web.history": "Rating history",
        "web.recent": "Recent games",
        "web.recent_line": "{name0} against {name1}: {outcome}",
        "web.draw": "draw",
        "web.winner": "{name} won",
        "web.nobody": "Nobody has finished a rated game in this server yet.",
        "web.previous_page": "Previous page",
        "web.next_page": "Next page",
        "web.page": "Page {page} of {pages}",
        "web.tournaments": "Tournaments",
        "web.tournament": "Tournament",
        "web.format": "Format",
        "web.round": "Round",
        "web.status": "Status",
        "web.running": "running",
        "web.standings": "Standings",
        "web.bracket": "Bracket",
        "web.round_title": "Round {round}",
        "web.pairings": "Round {round}: pairings",
        "web.points": "Points",
        "web.buchholz": "Buchholz cut-1",
        "web.direct": "Direct encounter",
        "web.sonneborn": "Sonneborn-Berger",
        "web.withdrawn": "withdrawn",
        "web.board_no": "Board",
        "web.moves_first": "Moves first",
        "web.moves_second": "Moves second",
        "web.result": "Result",
        "web.in_play": "in play",
        "web.not_found": "Nothing here. The link may be wrong, or this page is not shown any more.",
        "web.too_many": "Too many pages are open from your address.",
        "web.too_many.member": "You have too many live pages open. Close one and try again.",
        "web.busy": "Too many live pages are open right now. Try again in a few minutes.",
        "web.unavailable": "This page cannot be shown right now. Try again in a moment.",
        # the live page's connection, the board in words, the games being played
        "web.connection.live": "Live",
        "web.connection.reconnecting": "Connection lost: reconnecting…",
        "web.connection.refused": "Too many open pages from your address: retrying in {seconds} s",
        "web.connection.over": "Game over",
        "web.describe": "The board in text",
        "web.describe.stone": "Stone {number}: {name0}: {cards0}; {name1}: {cards1}",
        "web.describe.no_cards": "no cards",
        "web.describe.formation": "{cards} ({formation}, {total})",
        "web.describe.terrain": "terrain: {cards}",
        "web.describe.open": "not claimed",
        "web.describe.owner": "claimed by {name}",
        "web.describe.deck": "Deck: {clan} cards",
        "web.describe.decks": "Clan deck: {clan} cards; tactics deck: {tactic} cards",
        "web.describe.hand": Plural("{name} holds {n} card", "{name} holds {n} cards"),
        "web.describe.discards": "Discarded: {cards}",
        "web.formation.sum": "sum",
        "web.formation.run": "run",
        "web.formation.colour": "colour",
        "web.formation.three_of_a_kind": "three of a kind",
        "web.formation.colour_run": "colour run",
        "web.now_playing": "Now playing",
        "web.nobody_playing": "No game is being played in this server right now.",
        "web.link.watch": "Watch",
        "web.link.replay": "Replay",
        "web.link.ladder": "Ladder",
        "cmd.web": "Turn the web page links of this server on or off",
        "cmd.web.links": "Whether the bot posts links to web pages here",
        "web.links_on": "The bot posts links to web pages in this server again.",
        "web.links_off": (
            "The bot no longer posts links to web pages in this server, and the links posted so far"
            " show nothing."
        ),
        "web.links_unavailable": "The web pages are off for this bot.",
        "web.links_guild_only": "Use this command in a server.",
    }
)

# ------------------------------------------------------------- the table (a seat)
# (bot/web/table.py and ui/: one player's own page of a game, played by tapping; the
# "Play on the board" link button in their DM and private hand messages). Placeholders
# such as {number} are filled in by the page's script.
CATALOGUE.update(
    {
        "web.link.seat": "Play on the board",
        "table.your_turn": "Your turn",
        "table.your_hand": "Your hand",
        "table.your_side": "Your side",
        "table.their_side": "{name}'s side",
        "table.cards_in_hand": "{name}: {count} cards in hand",
        "table.tactics_in_hand": "tactic cards among them: {count}",
        "table.stone": "Stone {number}",
        "table.claim": "Claim stone {number}",
        "table.won_by": "won by {name}",
        "table.clan_deck": "Clan deck",
        "table.tactic_deck": "Tactic deck",
        "table.deck_left": "{count} left",
        "table.pass": "Pass",
        "table.end_turn": "End turn",
        "table.confirm": "Confirm",
        "table.cancel": "Cancel",
        "table.put_back": "Put back",
        "table.discard": "Discard",
        "table.play_here": "play here",
        "table.target": "choose",
        "table.chosen": "chosen",
        "table.step.card": "Tap a card of your hand, or a lit control.",
        "table.step.stone": "{card}: tap a lit stone to play it there.",
        "table.step.draw": "Draw a card: tap a deck.",
        "table.step.scout_draw": "Scout: tap a deck to draw ({count} more).",
        "table.step.return": (
            "Scout: tap the two cards to put back (the second ends on top), then Put back."
        ),
        "table.step.target": "{card}: tap a lit card on the table.",
        "table.step.dest": "{card}: tap a lit stone, or Discard where offered.",
        "table.step.confirm": "{move}?",
        "table.step.wait": "Waiting for {name}.",
        "table.step.over": "The game is over.",
        "table.deadline": "Move by {time}",
        "table.last_moves": "Last moves",
        "table.discards": "Discarded",
        "table.stale": (
            "The game moved on meanwhile (another window or Discord): this is the table as it is now."
        ),
        "table.offline": "Connection lost: reconnecting...",
        "table.reconnected": "Connected.",
        "table.sending": "Sending...",
        "table.hint": "Hint",
        "table.fog": "Fog",
        "table.mud": "Mud",
        "table.needs_script": "The table needs JavaScript to play.",
        "table.over": "This game is over: its table is closed.",
        "table.not_your_seat": "This is not your seat.",
        "table.bad_move": "That move could not be read.",
    }
)

# --------------------------------------------------- the table in Discord (Activity)
# (bot/web/activity.py and ui/src/activity.ts: the table inside Discord; the "Play in
# Discord" button under boards and hands).
CATALOGUE.update(
    {
        "activity.title": "Schotten-Totten",
        "activity.signing_in": "Asking Discord who you are...",
        "activity.refused": "Discord did not confirm who you are. Close the Activity and open it again.",
        "activity.expired": "Your session ended. Close the Activity and open it again.",
        "activity.outside": "This page runs inside Discord: start it from the Activities in a channel.",
        "activity.your_games": "Your games here",
        "activity.watch_games": "Games to watch",
        "activity.no_games": "No game is being played in this channel.",
        "activity.open_game": "Play game #{game_id}",
        "activity.watch_game": "Watch game #{game_id}",
        "activity.back": "All games",
        "activity.play_in_discord": "Play in Discord",
        "activity.use_link": "The Activity cannot be opened here; the table is on the web:",
        "activity.challenged_by": "{name} challenges you.",
        "activity.challenge_waiting": "Your challenge to {name} waits for an answer.",
        "activity.accept": "Accept",
        "activity.decline": "Decline",
        "activity.new_game": "Start a game",
        "activity.challenge": "Challenge {name}",
        "activity.no_one_here": "Nobody else is in the Activity: invite someone, or play me.",
        "activity.practice": "Play me ({level})",
        "activity.challenge_sent": "Challenge sent. It waits for an answer here and in the channel.",
        "activity.result": "Result",
        "activity.rating_change": "{name}: {before} → {after} ({delta:+d})",
        "activity.unrated": "This game does not count for ratings.",
        "activity.your_games_dm": "Your games",
        "activity.no_games_dm": "You have no game going. Start one against me, or in a server channel.",
        "activity.in_minutes": "in {minutes} min",
        "activity.failed": "That did not work. Try again in a moment.",
        "activity.too_many": (
            "Too many sign-ins from your address. Wait a minute and open the Activity again."
        ),
    }
)
