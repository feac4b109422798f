"""The point counter web app: FastAPI routes (JSON API and htmx pages), templates, i18n.

Build it with :func:`rebelote.web.app.create_app`; ``rebelote serve`` runs it with uvicorn.
"""
