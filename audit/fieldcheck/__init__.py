"""The field check: migrate real public servers at pinned commits and score every roots site.

Driven by ``audit/run.py --repos DIR`` (see audit/README.md, "Field check"). The scoring modules
(``sites``, ``classify``, ``checks``, ``compare``, ``verdicts``) use only the standard library (pyflakes
where it is installed) and are unit-tested in tests/test_field_scoring.py; the rest drives real runs.
"""
