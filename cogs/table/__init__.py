"""The game table on Discord, in two sides a layer apart:

* :mod:`cogs.table.requests`: a player's requests and the hand controls that make them
  (make a move, redraw the controls, show a hand, a hint);
* :mod:`cogs.table.publisher`: everything shown of a game besides those answers (the
  board, the end, the DMs an outcome changes, the outbox, reminders, new games).

:mod:`cogs.table.layouts` places the controls on a message; :mod:`cogs.table.messages`
writes the texts.
"""
