"""discord.py extensions. ``bot.app`` loads every module here that defines ``setup``
(``game``: the ``/schotten`` group; ``components``: the DynamicItems; ``errors``: the
tree's error handler; ``timers``: turn timers and challenge expiry; later issues add
theirs). Helper modules have no ``setup``: ``table`` (the one place that makes a move
for a user and publishes an outcome), ``controls`` (component builders), ``challenge``."""
