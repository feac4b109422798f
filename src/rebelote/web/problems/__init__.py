"""The card-play problems' pages (*Exercices*): a problem of the day, the problems by
difficulty, each one played and explained. Read-only and public."""
