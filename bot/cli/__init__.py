"""The command-line entry points: the bot and its operator commands, the terminal game."""
