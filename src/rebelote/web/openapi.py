"""The pieces of the OpenAPI document (``/openapi.json``) every product uses: the error body, a
route's answers, and the one secret scheme (``Authorization: Bearer``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from fastapi import FastAPI

JSON: Final = "application/json"

ERROR: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {"error": {"type": "string",
                             "description": "A sentence naming the field and the rule"}},
    "required": ["error"],
    "additionalProperties": False,
}
#: The one secret scheme of the API: a game's, a seat's or a concours's secret, sent as
#: ``Authorization: Bearer <secret>``.
SECRET_SCHEMES: Final[dict[str, Any]] = {"bearer": {
    "type": "http", "scheme": "bearer",
    "description": "The game's secret, answered as `token` when it was created"}}
#: A route that needs a secret: the ``bearer`` scheme.
SECURITY: Final[list[dict[str, list[str]]]] = [{"bearer": []}]

def error_doc(*codes: int) -> dict[str, Any]:
    """The ``responses`` entries of errors ``codes``, each ``{"error": ...}``."""
    reasons = {400: "Host not allowed", 403: "Missing or wrong secret, or a cross-site request",
               404: "No such game or deal", 409: "The game changed (If-Match) or is over",
               413: "Body too large", 415: "Body not sent as application/json",
               422: "Bad input, naming the field",
               429: "Too many from your address (the limits of docs/web.md): try again after "
                    "Retry-After seconds",
               503: "The store cannot write"}
    return {str(c): {"description": reasons.get(c, "Error"),
                     "content": {JSON: {"schema": ERROR}}} for c in codes}


def answer_doc(status: int, schema: dict[str, Any], description: str, *errors: int
               ) -> dict[str, Any]:
    """A route's ``responses``: the answer ``schema`` with ``status``, plus ``errors``."""
    return {str(status): {"description": description, "content": {JSON: {"schema": schema}}},
            **error_doc(*errors)}


def route_doc(body: dict[str, Any] | None, status: int, answer: dict[str, Any],
              description: str, *errors: int, secret: bool = True,
              parameters: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """A route's ``openapi_extra``: its JSON ``body`` (read by hand), its answer with
    ``status`` and its ``errors``, the ``parameters`` it reads by hand, and whether it needs a
    ``secret``."""
    doc: dict[str, Any] = {"responses": answer_doc(status, answer, description, *errors)}
    if body is not None:
        doc["requestBody"] = {"required": True, "content": {JSON: {"schema": body}}}
    if parameters:
        doc["parameters"] = list(parameters)
    if secret:
        doc["security"] = SECURITY
    return doc


def install(app: FastAPI) -> None:
    """Make ``app``'s document (built once, at its first reading) name the secret scheme."""
    build = app.openapi

    def document() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            schema.setdefault("components", {})["securitySchemes"] = SECRET_SCHEMES
            # the routes a limit per client counts (the middleware answers 429 before them)
            from rebelote.web.security import request_kind

            for path, operations in schema.get("paths", {}).items():
                for method, operation in operations.items():
                    if isinstance(operation, dict) and request_kind(method.upper(), path):
                        operation.setdefault("responses", {}).update(error_doc(429))
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = document  # type: ignore[method-assign]


__all__ = ["ERROR", "JSON", "SECRET_SCHEMES", "SECURITY", "answer_doc", "error_doc", "install",
           "route_doc"]
