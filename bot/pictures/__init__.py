"""The board and a hand as pictures (PNG), drawn with Pillow.

``board.py`` draws the table from a :class:`rules.view.PublicView` (nothing with a hand
reaches it), ``hand.py`` a player's cards given explicitly, ``cache.py`` renders both off
the event loop and keeps the latest pictures; ``theme.py`` holds the colours and fonts.
"""
