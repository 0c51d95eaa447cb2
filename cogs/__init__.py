"""The Discord layer: slash commands, buttons and selects mapped onto the services.

Modules import only downwards in this list (``.ci/run`` checks it with import-linter's
contract in ``pyproject.toml``):

1. ``ui/``: the building blocks: ``replies`` (private error answers), ``components``
   (every button and select), ``layouts`` (which components a message carries).
2. ``table/``: the game table presenter: a game's message texts and the ``Table`` that
   makes moves for users and publishes every outcome (board, DMs, announcements).
3. ``lobby`` (challenges, rematches, practice games), ``leaderboard`` (leaderboard and
   stats texts), ``choices`` (autocomplete), ``history`` (history, replay and export
   texts).
4. ``timers`` (reminders, forfeits, challenge expiry), then the extensions that
   ``bot.app`` loads, every module with a ``setup``: ``schotten`` (the ``/schotten``
   commands; it builds the table and wires the components to it) and ``errors`` (the
   tree's error handler).

Stored state is reached only through the services on the bot (``bot.service``,
``bot.challenges``, ``bot.matches``, ``bot.rankings``, ``bot.history``, ``bot.delivery``),
never through ``bot.db``.
"""
