"""Command-line plugins: every module here defines ``register(app)`` adding its commands."""
