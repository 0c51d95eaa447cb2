"""Discord's side of the Activity's sign-in: an OAuth2 code exchanged for an access
token at ``{DISCORD_API_BASE}/oauth2/token``, then the user it belongs to from
``/users/@me`` (aiohttp's client, a short timeout: the page waits for it).

Nothing here logs a code, a token or the client secret; a refusal says only which step
failed and Discord's status.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import aiohttp

log = logging.getLogger(__name__)

TIMEOUT = aiohttp.ClientTimeout(total=5.0)  # seconds for each of Discord's two answers


class Refused(Exception):
    """Discord did not accept the code (or could not be reached): no session."""


@dataclass(frozen=True)
class DiscordUser:
    """Who authorised the Activity, as Discord says."""

    id: int
    name: str
    locale: str | None
    access_token: str = field(repr=False)  # what the SDK's ``authenticate`` needs


@dataclass(frozen=True)
class OAuth:
    """The application's OAuth2 client (``DISCORD_CLIENT_ID``, ``DISCORD_CLIENT_SECRET``)."""

    client_id: int
    client_secret: str = field(repr=False)
    api_base: str = "https://discord.com/api/v10"

    async def user_of(self, code: str) -> DiscordUser:
        """Exchange ``code`` and read the user; ``Refused`` if Discord says no."""
        form = {
            "client_id": str(self.client_id),
            "client_secret": self.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        try:
            async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
                async with client.post(f"{self.api_base}/oauth2/token", data=form) as answer:
                    if answer.status != 200:
                        log.info("Activity sign-in: Discord refused a code (HTTP %d)", answer.status)
                        raise Refused
                    grant = await answer.json()
                token = grant.get("access_token") if isinstance(grant, dict) else None
                if not isinstance(token, str) or not token:
                    raise Refused
                headers = {"Authorization": f"Bearer {token}"}
                async with client.get(f"{self.api_base}/users/@me", headers=headers) as answer:
                    if answer.status != 200:
                        log.info("Activity sign-in: /users/@me answered HTTP %d", answer.status)
                        raise Refused
                    user = await answer.json()
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            log.warning("Activity sign-in: Discord could not be asked (%s)", type(error).__name__)
            raise Refused from None
        if not isinstance(user, dict) or not str(user.get("id", "")).isdigit():
            raise Refused
        name = user.get("global_name") or user.get("username") or ""
        locale = user.get("locale")
        return DiscordUser(
            id=int(user["id"]),
            name=str(name)[:64],
            locale=locale if isinstance(locale, str) else None,
            access_token=token,
        )
