"""``python -m bot.text``: merge new or changed English texts of the catalogue
(``bot/text/catalogue.py``) into every language's ``locale/<lang>.po``
(``docs/languages.md``)."""

import sys

from bot.text.catalogue import CATALOGUE
from bot.text.i18n import update_catalogues


def main() -> int:
    written = update_catalogues(CATALOGUE)
    for path in written:
        print(f"wrote {path}")
    if not written:
        print("the catalogues are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
