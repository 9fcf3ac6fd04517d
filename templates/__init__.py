"""jinja2 templates (``*.j2``) of the reports, installed as the resource package
``vcgen.templates`` (pyproject.toml maps this folder) and read by ``vcgen.report``
through ``importlib.resources``."""
