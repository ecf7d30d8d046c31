"""Modal questions with big buttons: a prompt (promotion, draw offer, resign, menu), the
piece info card and the name picker. Each shows a presenter's view and calls back one method."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.modalview import ModalView

from .. import texts as T
from .. import theme
from .common import BigButton, TextLabel

KV = Path(__file__).with_suffix(".kv")


class PromptPopup(ModalView):
    """Shows a flow Prompt; ``on_answer(key or None)``."""

    title = StringProperty("")
    on_answer = ObjectProperty(None)

    def show(self, prompt, on_answer: Callable) -> None:
        self.prompt = prompt
        self.on_answer = on_answer
        self.title = prompt.title
        self.auto_dismiss = False
        grid = self.ids.options
        grid.clear_widgets()
        # one column for a few, two for more; three past eight (a casual game with a clock: nine
        # items and Cancel must fit 480 px)
        grid.cols = 3 if len(prompt.options) > 8 else 2 if len(prompt.options) > 3 else 1
        for option in prompt.options:
            fill, outline = theme.piece_colours(option.owner)
            button = BigButton(text=option.label, glyph=option.glyph, glyph_colour=fill, glyph_outline=outline)
            button.bind(on_release=lambda _b, key=option.key: self._answer(key))
            grid.add_widget(button)
        cancel = self.ids.cancel
        cancel.text = getattr(prompt, "cancel_label", "") or T.CANCEL
        if not prompt.cancel and cancel.parent is not None:
            cancel.parent.remove_widget(cancel)  # a question that must be answered
        self.open()

    def _answer(self, key) -> None:
        self.dismiss()
        if self.on_answer is not None:
            self.on_answer(key)


class PieceInfoPopup(ModalView):
    view = ObjectProperty(None, allownone=True)
    on_close = ObjectProperty(None)

    def show(self, view, on_close: Callable) -> None:
        self.view, self.on_close = view, on_close
        box = self.ids.fights
        box.clear_widgets()
        for line in view.fights:
            box.add_widget(TextLabel(text=line))
        self.open()

    def close(self) -> None:
        self.dismiss()
        if self.on_close is not None:
            self.on_close()


class NamePopup(ModalView):
    title = StringProperty("")

    def show(self, title: str, names, on_pick: Callable, on_type: Callable | None = None) -> None:
        self.title = title
        grid = self.ids.names
        grid.clear_widgets()
        for name in names:
            button = BigButton(text=name)
            button.bind(on_release=lambda _b, n=name: (self.dismiss(), on_pick(n)))
            grid.add_widget(button)
        self.ids.cancel.unbind(on_release=self._cancel) if hasattr(self, "_cancel") else None
        self._cancel = lambda *_: (self.dismiss(), on_pick(None))
        self.ids.cancel.bind(on_release=self._cancel)
        if on_type is not None:
            typer = BigButton(text=T.TYPE_NAME, primary=True)
            typer.bind(on_release=lambda _b: (self.dismiss(), on_type()))
            grid.add_widget(typer)
        self.open()


class EntryPopup(ModalView):
    """The on-screen keyboard or number pad for the flow's open entry (companion.app.presenters.entry)."""

    view = ObjectProperty(None, allownone=True)
    presenter = ObjectProperty(None)

    def show(self, view, presenter) -> None:
        self.presenter = presenter
        self.auto_dismiss = False
        self.update(view)
        self.open()

    def update(self, view) -> None:
        self.view = view
        self.size_hint = (0.6, 0.95) if view.digits else (0.96, 0.96)
        pad = self.ids.keypad
        pad.send = self.presenter.key
        pad.show(view.rows)
