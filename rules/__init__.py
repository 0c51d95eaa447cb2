"""Schotten-Totten rules engine: pure, deterministic, no I/O."""

# The game (rules/game.py, rules/view.py, rules/values.py) and the value types it uses.
from rules import errors as errors
from rules import moves as moves
from rules.cards import CARDS_BY_ID as CARDS_BY_ID
from rules.cards import Card as Card
from rules.cards import ClanCard as ClanCard
from rules.cards import Tactic as Tactic
from rules.cards import TacticCard as TacticCard
from rules.cards import parse_card as parse_card
from rules.cards import parse_cards as parse_cards
from rules.claims import Proof as Proof
from rules.claims import claim_is_provable as claim_is_provable
from rules.claims import prepare as prepare
from rules.claims import prove_claim as prove_claim
from rules.errors import IllegalMove as IllegalMove
from rules.errors import NotationError as NotationError
from rules.errors import RulesError as RulesError
from rules.formations import Formation as Formation
from rules.formations import Strength as Strength
from rules.formations import formation_strength as formation_strength
from rules.formations import side_strength as side_strength
from rules.game import Applied as Applied
from rules.game import Game as Game
from rules.game import GameOptions as GameOptions
from rules.game import Result as Result
from rules.game import match_points as match_points
from rules.game import parse_log_move as parse_log_move
from rules.moves import Move as Move
from rules.moves import parse_move as parse_move
from rules.rulesets import BATTLE_LINE as BATTLE_LINE
from rules.rulesets import SCHOTTEN_TOTTEN as SCHOTTEN_TOTTEN
from rules.rulesets import Ruleset as Ruleset
from rules.values import Phase as Phase
from rules.values import Reason as Reason
from rules.view import PlayerView as PlayerView
from rules.view import StoneView as StoneView
