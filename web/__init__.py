"""The Flask site: the table screen, the seats' phones and the host controls.

``create_app(config)`` builds the application around one :class:`~companion.service.
TableService`; ``companion serve`` (see :mod:`web.cli`) runs it with uvicorn (see
:mod:`web.asgi`). See docs/web.md.
"""

from web.app import create_app

__all__ = ["create_app"]
