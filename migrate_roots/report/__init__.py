"""Renderers: they read results and never parse or rewrite code."""
