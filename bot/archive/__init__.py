"""Finished games: history, replay and the record file."""
