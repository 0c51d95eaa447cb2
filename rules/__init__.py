"""Schotten-Totten rules engine: pure, deterministic, no I/O."""

from rules.claims import Proof as Proof
from rules.claims import claim_is_provable as claim_is_provable
from rules.claims import prove_claim as prove_claim
from rules.formations import Formation as Formation
from rules.formations import Strength as Strength
from rules.formations import formation_strength as formation_strength
from rules.formations import side_strength as side_strength
