"""assets/gui_theme.json: list rows (the Replay Viewer's folder list, file dialogs) are left
aligned; buttons and drop-down options stay centred."""

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UISelectionList

from ui.theme import GUI_THEME


def test_list_rows_left_aligned_and_other_widgets_centred(display):
    manager = pygame_gui.UIManager((400, 400), str(GUI_THEME))
    rows = UISelectionList(pygame.Rect(0, 0, 300, 100), ["1  a.mbgr", "2  b.mbgr"], manager)
    button = UIButton(pygame.Rect(0, 120, 100, 30), "Open", manager)
    menu = UIDropDownMenu(["x", "y"], "x", pygame.Rect(0, 200, 200, 30), manager)
    menu.current_state.finish()
    menu.current_state = menu.menu_states["expanded"]
    menu.current_state.start()
    options = menu.current_state.options_selection_list.item_list_container.elements
    row = rows.item_list_container.elements[0]
    assert (row.text_horiz_alignment, row.text_horiz_alignment_padding) == ("left", 8)
    assert button.text_horiz_alignment == "center"
    assert [o.text_horiz_alignment for o in options] == ["center", "center"]
    assert menu.current_state.selected_option_button.text_horiz_alignment == "center"
    manager.clear_and_reset()
