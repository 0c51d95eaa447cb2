"""The web companion: live games, replays and a server's ladder in a browser.

``links.py`` signs the capability links the bot posts (``tokens.py``); ``feeds.py`` tells
open live pages about moves; ``pages.py`` writes the HTML (every name escaped);
``server.py`` is the aiohttp application and ``companion.py`` runs it inside the bot
(or alone: ``python -m bot web``). ``health.py`` adds ``/healthz``, ``/readyz`` and
``/metrics`` for the operator, ``operator.py`` serves them on ``METRICS_PORT``. See
README.md, sections "Web pages" and "Health and metrics".
"""
