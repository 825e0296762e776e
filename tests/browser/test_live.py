"""The live table in a real Chromium against the server make serve runs (gunicorn's asyncio
worker): a tap on one phone reaches another over its stream alone, and a phone whose stream is
cut catches up when it comes back. One server for the module (the test server pytest-django
runs has no stream: there, the pages poll, as the other browser tests show)."""

from __future__ import annotations

import socket
import threading

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import PHONE
from tests.servers import Server, database

from .test_draw_round import pick
from .test_scoring_games import start, watch_console

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> str:
    """The app as make serve runs it, on a database of its own; its address."""
    with database(tmp_path_factory.mktemp("live")) as url:
        server = Server(url).start()
        try:
            yield f"http://127.0.0.1:{server.port}"
        finally:
            log = server.stop()
    assert "Traceback" not in log, log[-3000:]


def lead(page: Page, name: str, tile: str) -> None:
    page.locator("label.pill", has_text=name).click()
    pick(page, tile)
    page.locator('.end-button[data-end="lead"]').click()


def second_phone(browser, page: Page):
    """Ben's phone joins Ana's table with the Keep score link; it is following live."""
    page.get_by_text("Share this table").click()
    link = page.locator('input[aria-label="Keep score link"]').input_value()
    phone = browser.new_context(**PHONE)
    ben = phone.new_page()
    ben.goto(link)
    expect(ben.locator("body")).to_have_attribute("data-live", "on")
    return phone, ben


def test_a_tap_reaches_the_other_phone_over_its_stream_alone(served, browser, page: Page):
    problems = watch_console(page)
    start(page, served, "draw", ["Ana", "Ben", "Caro"])
    expect(page.locator("body")).to_have_attribute("data-live", "on")
    phone, ben = second_phone(browser, page)
    try:
        ben_problems = watch_console(ben)
        asked: list[str] = []
        ben.on("request", lambda request: asked.append(request.url))
        lead(page, "Ana", "6-6")
        expect(ben.locator(".log")).to_contain_text("Ana led 6-6")
        expect(ben.locator("#table")).to_have_attribute("data-version", "1")
        page.get_by_role("button", name="Ben draws a tile").click()
        expect(ben.locator(".log")).to_contain_text("Ben drew")
        # Ben's phone asked nothing: both tables came down its stream, opened before.
        assert asked == []
        # What came down is live htmx (its forms and its poll taken over), as a poll's answer.
        assert ben.evaluate("() => !!document.getElementById('poll')['htmx-internal-data']")
        assert ben_problems == [] and problems == []
    finally:
        phone.close()


class WiFi:
    """Ben's Wi-Fi: a TCP relay between his phone and the server that can drop every
    connection it carries and refuse new ones (Chromium's own offline switch leaves an open
    stream alone)."""

    def __init__(self, port: int) -> None:
        self.upstream, self.up, self.held = port, True, []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                phone, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                phone.close()
                continue
            server = socket.create_connection(("127.0.0.1", self.upstream))
            self.held += [phone, server]
            for a, b in ((phone, server), (server, phone)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def drop(self) -> None:
        self.up = False
        for held in self.held:
            try:
                held.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.held = []

    def close(self) -> None:
        self.drop()
        self.listener.close()


def test_a_phone_whose_stream_is_cut_catches_up(served, browser, page: Page):
    start(page, served, "draw", ["Ana", "Ben"])
    wifi = WiFi(int(served.rsplit(":", 1)[1]))
    page.get_by_text("Share this table").click()
    link = page.locator('input[aria-label="Keep score link"]').input_value()
    phone = browser.new_context(**PHONE)
    try:
        ben = phone.new_page()
        ben.goto(link.replace(served, f"http://127.0.0.1:{wifi.port}"))
        expect(ben.locator("body")).to_have_attribute("data-live", "on")
        wifi.drop()  # Ben's stream is cut mid-round, and his phone cannot reach the server
        expect(ben.locator("body")).to_have_attribute("data-live", "off")
        lead(page, "Ana", "6-6")
        page.get_by_role("button", name="Ben draws a tile").click()
        expect(page.locator("#table")).to_have_attribute("data-version", "2")
        # Meanwhile Ben's phone polls, fails, and says the connection is lost.
        expect(ben.locator("#connection")).to_be_visible()
        expect(ben.locator("#table")).to_have_attribute("data-version", "0")
        wifi.up = True
        # Back: the stream again, with the version Ben's screen shows, brings the table now.
        expect(ben.locator("#table")).to_have_attribute("data-version", "2", timeout=15000)
        expect(ben.locator(".log")).to_contain_text("Ana led 6-6")
        expect(ben.locator("body")).to_have_attribute("data-live", "on")
        expect(ben.locator("#connection")).to_be_hidden()
        lead_after = ben.locator(".log")
        page.get_by_role("button", name="Ben draws a tile").click()
        expect(lead_after).to_contain_text("Ben drew", timeout=5000)
        expect(ben.locator("#table")).to_have_attribute("data-version", "3")
    finally:
        phone.close()
        wifi.close()
