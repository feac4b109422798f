"""The one scheme of the secrets rebelote hands to people: a counter game's token, a concours's
organiser's token, a table seat's token and the invitation to a seat kept for a friend.

:func:`new_secret` makes one: 192 random bits, URL-safe (32 characters). What the server keeps
of a token is its SHA-256 only (:func:`secret_hash`), and a token presented is checked against
it in constant time (:func:`secret_matches`); an invitation, which its table shows to the
host, is kept as it is and compared in constant time too (:func:`same_secret`). The web reads
a presented secret with :func:`rebelote.web.security.bearer`.

>>> token = new_secret()
>>> len(token), secret_matches(token, secret_hash(token))
(32, True)
>>> secret_matches("guess", secret_hash(token))
False
>>> same_secret(token, token), same_secret(None, token)
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_secret() -> str:
    """A fresh secret: 192 random bits, URL-safe (32 characters)."""
    return secrets.token_urlsafe(24)


def secret_hash(secret: str) -> str:
    """The SHA-256 of a secret (hex), the only form in which a token is stored."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def secret_matches(secret: str | None, stored_hash: str | None) -> bool:
    """``secret`` is the one whose hash is ``stored_hash`` (compared in constant time)."""
    if not secret or not stored_hash:
        return False
    return hmac.compare_digest(secret_hash(secret), stored_hash)


def same_secret(given: str | None, kept: str | None) -> bool:
    """``given`` is the secret ``kept`` in clear (an invitation), compared in constant time."""
    if not given or not kept:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                               kept.encode("utf-8", "surrogatepass"))


__all__ = ["new_secret", "same_secret", "secret_hash", "secret_matches"]
