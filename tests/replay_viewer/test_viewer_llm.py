"""The Replay Viewer shows an LLM agent's recorded reply and fallback for the selected tick,
where submitted orders show (the Oracle, the agent's own view, its team's view) and nowhere
else."""

import pygame

from evaluation.replay import read_replay, write_replay
from replay_viewer import layout as L
from replay_viewer.app import App
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import click, frame

REPLY = '{"move": 3, "target": 0, "ultimate": 0}'


def _replay_with_decisions(tmp_path):
    replay = synthetic_replay(8, seed=2)
    tick = int(replay.states["tick"][2])
    replay.decisions = [
        {"tick": tick, "slot": 2, "status": "ok", "reason": "", "action": [3, 0, 0],
         "calls": 1, "retries": 0, "latency_s": 0.25, "reply": REPLY, "prompt": []},
        {"tick": tick, "slot": 1, "status": "fallback", "reason": "the reply was empty",
         "action": None, "calls": 2, "retries": 0, "latency_s": 0.5, "reply": ""},
    ]  # fmt: skip
    return write_replay(tmp_path / "llm.mbgr", replay)


def test_the_agent_panel_shows_the_reply_where_orders_show(display, tmp_path):
    path = _replay_with_decisions(tmp_path)
    assert read_replay(path).decisions[0]["reply"] == REPLY
    viewer = App(L.SIZE)
    assert viewer.open_path(path)
    model = viewer.model
    model.timeline.seek(3)  # the orders of tick 2 -> 3
    frame(viewer)
    centre = viewer.renderer.world_to_screen(model.state(3)["pos"][2], L.ARENA)
    frame(viewer, click(centre))
    assert model.selected == 2 and viewer.side.tab == "agent"
    lines = model.agent_lines(2)
    assert f"LLM reply: {REPLY}" in lines and "LLM calls 1, retries 0, 0.25 s" in lines
    surface = frame(viewer)
    pygame.image.save(surface, str(tmp_path / "viewer_llm.png"))
    assert "LLM fallback (no-op): the reply was empty" in model.agent_lines(1)
    model.set_view(("team", 0))
    assert f"LLM reply: {REPLY}" in model.agent_lines(2)
    model.set_view(("agent", 1))  # a teammate's point of view: its reply is private
    assert not any(line.startswith("LLM") for line in model.agent_lines(2))
    model.timeline.seek(4)  # another tick: nothing recorded for it
    model.set_view("oracle")
    assert not any(line.startswith("LLM") for line in model.agent_lines(2))
