"""The pieces of the OpenAPI document (``/openapi.json``) both products use: the error body and
a route's answers."""

from __future__ import annotations

from typing import Any, Final

JSON: Final = "application/json"

ERROR: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {"error": {"type": "string",
                             "description": "A sentence naming the field and the rule"}},
    "required": ["error"],
    "additionalProperties": False,
}

def error_doc(*codes: int) -> dict[str, Any]:
    """The ``responses`` entries of errors ``codes``, each ``{"error": ...}``."""
    reasons = {400: "Host not allowed", 403: "Missing or wrong secret, or a cross-site request",
               404: "No such game or deal", 409: "The game changed (If-Match) or is over",
               413: "Body too large", 415: "Body not sent as application/json",
               422: "Bad input, naming the field", 503: "The store cannot write"}
    return {str(c): {"description": reasons.get(c, "Error"),
                     "content": {JSON: {"schema": ERROR}}} for c in codes}


def answer_doc(status: int, schema: dict[str, Any], description: str, *errors: int
               ) -> dict[str, Any]:
    """A route's ``responses``: the answer ``schema`` with ``status``, plus ``errors``."""
    return {str(status): {"description": description, "content": {JSON: {"schema": schema}}},
            **error_doc(*errors)}


__all__ = ["ERROR", "JSON", "answer_doc", "error_doc"]
