"""discord.py extensions. ``bot.app`` loads every module here that defines ``setup``;
helper modules (``announce``, ``controls``, ``players``) have none."""
