"""Start ngshare on the host and port of $JUPYTERHUB_SERVICE_URL (written by classroom setup).

ngshare's own main() listens on 0.0.0.0; the hub's proxy is the only client it needs.
"""
import os
import sys
from urllib.parse import urlparse

from tornado.httpserver import HTTPServer

_listen = HTTPServer.listen


def _listen_on_service_host(self, port, address=""):
    return _listen(self, port, urlparse(os.environ["JUPYTERHUB_SERVICE_URL"]).hostname)


HTTPServer.listen = _listen_on_service_host
from ngshare.ngshare import main  # noqa: E402

main(sys.argv[1:])
