"""Players across games: ratings, rankings, languages and display names."""
