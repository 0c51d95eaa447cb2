"""Text and languages: the message catalogue, translations, card notation and the text board."""
