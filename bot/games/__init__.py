"""The game services: a live game, its moves, the AI seat, challenges, matches and publishing."""
