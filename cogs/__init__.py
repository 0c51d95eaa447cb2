"""The Discord layer: slash commands, buttons and selects mapped onto the services.

Modules import only downwards in this list (``make lint`` checks it with import-linter's
contracts in ``pyproject.toml``):

1. ``ui/``: the building blocks: ``replies`` (private error answers), ``components``
   (the base of every button and select), ``translator``.
2. ``table/messages``: the texts of a game's messages.
3. ``table/requests`` (a player's requests at the table, with the hand controls and the
   board's button that make them), ``leaderboard`` (leaderboard and stats texts, the
   page buttons), ``history`` (history, replay and export texts, their buttons),
   ``choices`` (autocomplete).
4. ``lobby`` (challenges, rematches, practice games, the challenge and rematch
   buttons), ``table/layouts`` (which controls a hand or a board carries).
5. ``table/publisher``: publishes every outcome (board, DMs, announcements, the
   outbox, reminders, new games); the layers below reach it through
   ``cogs.table.requests.Publishing``, installed for the bot.
6. ``timers`` (reminders, forfeits, challenge expiry), then the extensions that
   ``bot.app`` loads, every module with a ``setup``: ``schotten`` (the ``/schotten``
   commands; it builds the publisher and registers the components) and ``errors`` (the
   tree's error handler).

A button answers its own click (``run``), next to the code it calls: a new one is its
class there and its place on a message.

Stored state is reached only through the services on the bot (``bot.service``,
``bot.challenges``, ``bot.matches``, ``bot.rankings``, ``bot.history``, ``bot.delivery``),
never through ``bot.db``.
"""
