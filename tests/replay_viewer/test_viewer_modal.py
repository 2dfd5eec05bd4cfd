"""With no replay open the tick box, the speed menu and the tabs are greyed out and take no
click; a branch form ("Save as scenario") veils the whole window, top bar included, and
nothing behind it acts (a click on Play, a shortcut key, a tab) until Esc closes it. Events go
through SDL's event queue as a person's do."""

import pygame

from replay_viewer import layout as L
from tests.helpers.viewer import click, frame, key, text

BAR_RECTS = {name: pygame.Rect(rect) for name, _, rect, _ in L.BUTTONS}


def post(viewer, events):
    pygame.event.clear()
    for event in events:
        pygame.event.post(event)
    frame(viewer, pygame.event.get())
    return frame(viewer)


def brightness(surface, rect) -> float:
    """Mean of the R, G and B values of `surface` inside `rect`."""
    pixels = pygame.surfarray.pixels3d(surface.subsurface(pygame.Rect(rect)))
    return float(pixels.mean())


def test_no_replay_greys_out_the_tick_box_speed_menu_and_tabs(display, replay_file):
    from replay_viewer.app import App

    viewer = App(L.SIZE)
    frame(viewer)
    widgets = [viewer.tick_entry, viewer.speed_menu, *viewer.side.tab_buttons.values()]
    assert len(widgets) == 6 and not any(w.is_enabled for w in widgets)
    post(viewer, click(viewer.tick_entry.rect.center) + text("12") + [key(pygame.K_RETURN)])
    assert viewer.tick_entry.get_text() == "" and not viewer._typing()
    post(viewer, [key(pygame.K_SLASH, pygame.KMOD_SHIFT, unicode="?")])
    assert viewer.show_help  # the greyed box kept no keyboard: the shortcut still works
    post(viewer, [key(pygame.K_ESCAPE)])
    post(viewer, click(viewer.side.tab_buttons["metrics"].rect.center))
    assert viewer.side.tab == "log"
    post(viewer, click(viewer.speed_menu.rect.center))
    assert viewer.speed_menu.current_state is viewer.speed_menu.menu_states["closed"]

    assert viewer.open_path(replay_file)
    frame(viewer)
    assert all(w.is_enabled for w in [viewer.tick_entry, viewer.speed_menu])
    assert all(b.is_enabled for b in viewer.side.tab_buttons.values())
    post(viewer, click(viewer.side.tab_buttons["metrics"].rect.center))
    assert viewer.side.tab == "metrics"
    viewer.act("speed", 1)  # a rebuilt speed menu stays live while a replay is open
    assert viewer.speed_menu.is_enabled
    assert viewer.open_path(replay_file.parent)  # a folder listing: no game again
    frame(viewer)
    assert not viewer.tick_entry.is_enabled and not viewer.speed_menu.is_enabled
    assert not any(b.is_enabled for b in viewer.side.tab_buttons.values())


def test_a_branch_form_veils_the_bar_and_nothing_behind_it_acts(app, tmp_path):
    app.model.timeline.seek(5)
    assert app.model.view == "oracle"
    before = post(app, [])
    bar = BAR_RECTS["play"]
    lit = brightness(before, bar)
    shot = post(app, [key(pygame.K_x, unicode="x")])  # Save as scenario
    assert app.branch_window is not None and app.modal_windows()
    pygame.image.save(shot, str(tmp_path / "viewer_form.png"))
    assert brightness(shot, bar) < 0.5 * lit  # the bar is veiled like the arena
    go = app.branch_window.go
    assert brightness(shot, go.rect) > 1.5 * brightness(shot, bar)  # its button stays bright

    post(app, click(bar.center))  # Play, behind the form
    assert not app.model.timeline.playing
    post(app, [key(pygame.K_RIGHT), key(pygame.K_1, unicode="1")])
    assert app.model.tick == 5 and app.model.view == "oracle"
    post(app, click(app.side.tab_buttons["heat"].rect.center))
    assert app.side.tab == "log"
    post(app, [key(pygame.K_ESCAPE)])
    assert app.branch_window is None and not app.modal_windows()
    shot = post(app, click(bar.center))
    assert app.model.timeline.playing and brightness(shot, bar) > 0.8 * lit


def test_the_file_dialog_is_modal_and_esc_closes_it(app):
    bar = BAR_RECTS["play"]
    lit = brightness(post(app, []), bar)
    shot = post(app, [key(pygame.K_o, pygame.KMOD_CTRL, unicode="\x0f")])
    assert app.dialog is not None and app.modal_windows() == [app.dialog]
    assert brightness(shot, bar) < 0.5 * lit
    post(app, click(bar.center))
    assert not app.model.timeline.playing and app.dialog.alive()
    post(app, [key(pygame.K_ESCAPE)])
    assert app.dialog is None and not app.modal_windows()
