"""What every screen must be at 800x480 and larger (used inside a running window by the
drivers): no text under 12 px, no label whose text does not fit its box (nor lines cut off by a
box of fixed height), no word broken between letters, nothing outside the window, and the
board's own texts (piece labels, badges, coordinates) at 12 px or more.

``layout_problems()`` returns one line per problem; ``action_at(x, y)`` names the button a
finger at that point would press (for "never a different action under a finger that just
tapped").
"""

from __future__ import annotations

import re

from kivy.core.window import Window
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.recycleview import RecycleView
from kivy.uix.scrollview import ScrollView

#: The smallest text a player at arm's length reads on the 7-inch screen (pixels).
MIN_FONT = 12
_SIZE_MARKUP = re.compile(r"\[size=(\d+(?:\.\d+)?)\]")
_MARKUP = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")
_WORD = re.compile(r"^[^\W\d_]+(?:['\u2019-][^\W\d_]+)*[.,:;!?)]?$")


def shown_widgets():
    """Widgets on screen: the current screen and any open popup, not hidden ones."""
    for top in Window.children:
        yield from top.walk(restrict=True)


def hidden(w) -> bool:
    """Not shown: transparent, or inside something transparent or of no size (a hidden row)."""
    node = w
    while node is not None:
        if getattr(node, "opacity", 1) == 0:
            return True
        if node is not w and hasattr(node, "height") and (node.height < 2 or node.width < 2):
            return True
        parent = node.parent
        if parent is node:
            break
        node = parent
    return False


def scrolled(w) -> bool:
    """Inside a scrolling list: its rows may lie beyond the window, the list itself may not."""
    node = w.parent
    while node is not None and node is not node.parent:
        if isinstance(node, (ScrollView, RecycleView)):
            return True
        node = node.parent
    return False


def _name(w) -> str:
    text = getattr(w, "text", "")
    return f"{type(w).__name__} {text[:30]!r}" if text else type(w).__name__


def layout_problems() -> list[str]:
    problems = []
    width, height = Window.size
    from companion.app.widgets.board import BoardWidget

    for w in shown_widgets():
        if w.get_root_window() is None or hidden(w) or isinstance(w, ModalView):
            continue
        if w.width < 2 or w.height < 2:
            continue
        if not scrolled(w):
            x0, y0 = w.to_window(w.x, w.y)
            if x0 < -1 or y0 < -1 or x0 + w.width > width + 1 or y0 + w.height > height + 1:
                problems.append(f"{_name(w)}: outside the window ({x0:.0f},{y0:.0f} {w.width:.0f}x{w.height:.0f})")
        if isinstance(w, BoardWidget) and w.view is not None:
            smallest = w.smallest_text
            if smallest is not None and smallest < MIN_FONT - 0.01:
                problems.append(f"board {w.view.width}x{w.view.height}: text drawn at {smallest:.1f} px "
                                f"({w.smallest_text_what})")
            for square, badges in w.badge_boxes.items():
                label = w.label_boxes.get(square)
                if label is not None and any(_overlap(label, b) for b in badges):
                    problems.append(f"board: a badge covers the label of square {w.view.squares[square].name}")
        if not isinstance(w, Label) or not w.text.strip():
            continue
        sizes = [w.font_size] + [float(s) for s in _SIZE_MARKUP.findall(w.text)] if w.markup else [w.font_size]
        if min(sizes) < MIN_FONT - 0.01:
            problems.append(f"{_name(w)}: text at {min(sizes):.1f} px")
        w.texture_update()
        tw, th = w.texture_size
        if tw > w.width + 2 or th > w.height + 2:
            problems.append(f"{_name(w)}: text {tw:.0f}x{th:.0f} in a box {w.width:.0f}x{w.height:.0f}")
        broken = _broken_word(w)
        if broken:
            problems.append(f"{_name(w)}: the word {broken!r} does not fit on a line and is broken")
        cut = _cut_height(w)
        if cut:
            problems.append(f"{_name(w)}: its lines need {cut:.0f} px, its box is {w.text_size[1]:.0f} px high: "
                            "the rest is cut off")
    return problems


def _cut_height(w) -> float:
    """The height ``w``'s text needs when its box's height is fixed (``text_size`` of both): Kivy
    then draws only the lines that fit, so a long (German) text loses lines without growing.
    0 when it fits, or when cutting is meant (``shorten``, ``max_lines``)."""
    size = w.text_size
    if not size or size[0] is None or size[1] is None or w.shorten or w.max_lines:
        return 0.0
    core = getattr(w, "_label", None)
    if core is None:
        return 0.0
    options = dict(core.options)
    options["text_size"] = (size[0], None)
    try:
        free = type(core)(text=core.text, **{k: v for k, v in options.items() if k != "text"})
        _w, need = free.render()
        lines = len(getattr(free, "_cached_lines", ()))
    except Exception:  # noqa: BLE001 - a text provider that cannot lay out: no check
        return 0.0
    # one line taller than its box is a glyph or a digit sized to the box on purpose; a second
    # line that does not fit is text lost
    return float(need) if lines > 1 and need > size[1] + 2 else 0.0


def _broken_word(w) -> str:
    """A word wider than a wrapping label's line (Kivy then breaks it between letters). Only
    words of letters count: a path, a seed or a position text has no place to break and may
    wrap anywhere."""
    width = w.text_size[0] if w.text_size else None
    core = getattr(w, "_label", None)
    if not width or core is None:
        return ""
    room = width - 2 * (w.padding[0] if isinstance(w.padding, (list, tuple)) else w.padding)
    text = _MARKUP.sub("", w.text) if w.markup else w.text
    for word in text.split():
        if not _WORD.match(word):
            continue
        try:
            ww, _ = core.get_extents(word)
        except Exception:  # noqa: BLE001 - a text provider without extents: no check
            return ""
        if ww > room + 1:
            return word
    return ""


def _overlap(a, b, slack: float = 1.0) -> bool:
    """Do two boxes (x, y, w, h) share more than ``slack`` pixels each way?"""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return min(ax + aw, bx + bw) - max(ax, bx) > slack and min(ay + ah, by + bh) - max(ay, by) > slack


def action_at(x: float, y: float) -> str | None:
    """The enabled, shown button a touch at window point (x, y) would press ("" if none)."""
    from kivy.uix.behaviors import ButtonBehavior

    found = None
    for w in shown_widgets():
        if not isinstance(w, ButtonBehavior) or w.disabled or hidden(w) or getattr(w, "hidden", False):
            continue
        if w.get_root_window() is None:
            continue
        lx, ly = w.to_widget(x, y)
        if w.collide_point(lx, ly):
            found = w  # the last one walked is the one drawn on top
    if found is None:
        return None
    return getattr(found, "key", "") or getattr(found, "text", "") or type(found).__name__
