"""What a widget needs of the window it sits in: the ``Window`` protocol.

Dialogs and the focus ring open pygame_gui windows, size them to the layout and start in the
player's last folder; they take this narrow protocol, which the screens' ``Host`` fulfils, so
the widgets stay below the screens and import none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import pygame_gui

    from battle.ui.files.settings import Settings
    from battle.ui.widgets.layout import Layout


class Window(Protocol):
    @property
    def layout(self) -> Layout:
        """Where everything goes at the window's current size and text size."""
        ...

    @property
    def manager(self) -> pygame_gui.UIManager: ...

    @property
    def settings(self) -> Settings: ...
