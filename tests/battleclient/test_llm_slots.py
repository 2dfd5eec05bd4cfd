"""LLM slots in the BattleClient, against the loopback Chat Completions test server.

The LLM thinks on the engine thread while the window stays live: a "thinking" strip shows, K
(through SDL's event queue) stops the wait and its agents play the no-op, recorded as such in
the replay; replies show in the side panel for the human's own team only; a failed endpoint is
one message and the game goes on.
"""

import pygame
import pytest

from battleclient import llm_panel
from tests.battleclient.driver import frame, key, make_app, orders_ready, setup, wait_for
from tests.helpers.chat_server import ChatServer


@pytest.fixture(scope="module")
def server():
    with ChatServer(slow_s=20.0) as running:
        yield running


def press(app, k):
    """A key through SDL's event queue, as a person's key press arrives."""
    pygame.event.post(key(k))
    frame(app)


def _orders_at(app, tick):
    wait_for(app, lambda: orders_ready(app) and app.screen.snap.tick >= tick, seconds=300)


def test_thinking_shows_and_k_cancels_it(display, server, tmp_path):
    spec = tmp_path / "slow.json"
    spec.write_text(f'{{"model": "slow", "base_url": "{server.url}", "decision_budget_s": 4}}')
    app = make_app(setup(f"A0=human,A1=llm:{spec},A2-A4=random,B*=random"))
    _orders_at(app, 0)  # the game shows at once: the LLM thinks on screen, not at set-up
    session = app.screen.session
    wait_for(app, lambda: 1 in session.llm_status()["replies"], seconds=30)  # its 4 s budget
    assert session.llm_status()["replies"][1][2] == "no reply within the budget"
    press(app, pygame.K_SPACE)
    _orders_at(app, 1)
    wait_for(app, lambda: session.llm_status()["thinking"], seconds=30)  # tick 1's call
    text = llm_panel.thinking_text(session.llm_status())
    assert text.startswith("LLM thinking: A1 (") and "K cancels" in text
    assert app.screen.busy()  # the window keeps drawing while the LLM thinks
    press(app, llm_panel.CANCEL_KEY)
    wait_for(app, lambda: not session.llm_status()["thinking"], seconds=2)  # at once, not 4 s
    assert "Stopped waiting for the LLM" in app.screen.message
    press(app, pygame.K_SPACE)
    _orders_at(app, 2)
    wait_for(app, lambda: not app.worker.busy, seconds=30)
    records = {(r["tick"], r["slot"]): r["reason"] for r in session.replay().decisions}
    assert records[(1, 1)] == "cancelled"
    assert records[(0, 1)] == "no reply within the budget"
    assert session.replay().events["fallback"][1, 1]  # tick 1's transition: A1 played the no-op
    session.cancel_thinking()


def test_replies_show_for_the_own_team_and_a_failure_is_one_message(display, server, tmp_path):
    failing = tmp_path / "fail.json"
    failing.write_text(f'{{"model": "500", "base_url": "{server.url}", "max_retries": 0}}')
    slots = f"A0=human,A1=llm:legal@{server.url},A2=llm:{failing},A3-A4=random,"
    app = make_app(setup(slots + f"B0=llm:legal@{server.url},B1-B4=random"))
    _orders_at(app, 0)
    wait_for(app, lambda: app.screen.message.startswith("LLM: endpoint"), seconds=10)
    assert "HTTP 500" in app.screen.message and "play the no-op" in app.screen.message
    press(app, pygame.K_SPACE)
    _orders_at(app, 1)
    wait_for(app, lambda: not app.worker.busy, seconds=30)
    assert not app.screen.message.startswith("LLM")  # said once, not every tick
    status = app.screen.session.llm_status()
    lines = [text for text, _ in llm_panel.reply_lines(status, 0)]
    assert any(t.startswith('A1 t1: {"move": ') for t in lines)  # tick 1's legal reply
    assert any(t.startswith("A2 t1: (no reply)") for t in lines)
    assert not any(t.startswith("B0") for t in lines)  # the enemy's LLM stays private
    assert "HTTP 500" in status["error"]
    surface = frame(app, dt=0.6)
    pygame.image.save(surface, str(tmp_path / "llm_replies.png"))
    shown = surface.subsurface(llm_panel.side_rects(True)[1])
    assert len({shown.get_at((x, 30))[:3] for x in range(0, 380, 2)}) > 2  # text was drawn


def test_an_opponents_failing_endpoint_is_not_shown_to_the_human():
    # Team B's LLM System failed; team A's played legally: the session's status as
    # GameSession.llm_status() builds it for those two Systems
    failure = "endpoint http://127.0.0.1:1/v1 failed after 2 retries: APIConnectionError"
    status = {
        "thinking": {},
        "replies": {1: (3, '{"move": 8}', "legal"), 5: (3, "", failure)},
        "error": failure,
        "errors": {1: failure},
    }
    own = [text for text, _ in llm_panel.reply_lines(status, 0)]
    assert own == ['A1 t3: {"move": 8}']  # no "Last endpoint failure" line for team A
    assert llm_panel.failure_for(status, 0) == ""
    assert llm_panel.failure_for(status, 1) == failure
    oracle = [text for text, _ in llm_panel.reply_lines(status, None)]
    assert oracle[-1] == f"   no-op: {failure[:100]}"  # the Oracle view sees every team's
