"""The table presenter: a game's messages (:mod:`cogs.table.messages`) and the
:class:`~cogs.table.table.Table` that makes moves for users and publishes outcomes."""

from cogs.table.table import Table

__all__ = ["Table"]
