"""One headless Chromium for a build (handouts' PDFs, the slides' PDFs), kept off the network."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--allow-file-access-from-files",
]
CHROMIUM_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "chrome")


def find_chromium() -> str | None:
    for var in ("PERCEPTRON_CHROMIUM", "CHROMIUM"):
        env = os.environ.get(var)
        if env:
            return env if Path(env).is_file() else shutil.which(env)
    for name in CHROMIUM_CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """One headless Chromium for a whole build; refuses every non-local request."""

    def __init__(self, executable: str):
        from playwright.sync_api import sync_playwright

        self._pw = sync_playwright().start()
        try:
            self.browser = self._pw.chromium.launch(
                executable_path=executable, headless=True, args=CHROMIUM_ARGS
            )
        except Exception:
            self._pw.stop()
            raise
        self.blocked: list[str] = []

    def page(self):
        page = self.browser.new_page(viewport={"width": 1100, "height": 1400})

        def guard(route):
            url = route.request.url
            if url.startswith(("file:", "data:", "about:", "blob:")):
                route.continue_()
            else:
                self.blocked.append(url)
                route.abort()

        page.route("**/*", guard)
        return page

    def close(self):
        try:
            self.browser.close()
        finally:
            self._pw.stop()
