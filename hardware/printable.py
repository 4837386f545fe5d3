"""Print-ready boards: a true-scale PDF with the corner markers, a scale bar and marker cards.

One page of the chosen paper when the board fits (portrait or landscape), else A4 tiles that
overlap by `OVERLAP_MM`, with crop marks to cut and tape along. A last page holds just the four
marker cards, for owners of a commercial board who only need the markers around it.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from fpdf import FPDF

from hardware.artwork import QUIET_ZONE_MM, marker_image, render_board
from rules.geometry import Board

PAPERS = {"A3": (297.0, 420.0), "A4": (210.0, 297.0)}
MARGIN_MM = 6.0  # unprintable edge: most printers manage 3-5 mm
OVERLAP_MM = 12.0
PRINT_PX_PER_MM = 6.0  # ~150 dpi artwork
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")


def _png(img: np.ndarray) -> io.BytesIO:
    ok, buf = cv2.imencode(".png", img)
    if not ok:  # pragma: no cover
        raise RuntimeError("PNG encoding failed")
    return io.BytesIO(buf.tobytes())


def _scale_bar(pdf: FPDF, x: float, y: float) -> None:
    """A 100 mm bar with 10 mm ticks: measure it to check the print is at 100 %."""
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.3)
    pdf.line(x, y, x + 100, y)
    for k in range(11):
        tick = 3.0 if k % 5 == 0 else 1.8
        pdf.line(x + 10 * k, y, x + 10 * k, y - tick)
    pdf.set_font("helvetica", size=8)
    pdf.text(x, y + 4, "100 mm - print at actual size (100 %) and check with a ruler")


def _crop_marks(pdf: FPDF, x: float, y: float, w: float, h: float) -> None:
    pdf.set_line_width(0.2)
    pdf.set_draw_color(0, 0, 0)
    m = 5.0
    for cx, cy in ((x, y), (x + w, y), (x + w, y + h), (x, y + h)):
        sx = -1 if cx == x else 1
        sy = -1 if cy == y else 1
        pdf.line(cx + sx * 1, cy, cx + sx * (1 + m), cy)
        pdf.line(cx, cy + sy * 1, cx, cy + sy * (1 + m))


@dataclass(frozen=True)
class PrintLayout:
    """How a board goes onto paper: one sheet of the chosen paper, or A4 tiles."""

    paper: str  # the paper the board is printed on ("A3" or "A4")
    orientation: str  # "P" | "L" (tiles are always portrait)
    columns: int = 1
    rows: int = 1

    @property
    def sheets(self) -> int:
        return self.columns * self.rows

    def describe(self, title: str, asked: str) -> str:
        """The layout in words, e.g. for `boardref print-board`'s last line."""
        if self.sheets == 1:
            where = f"on one {self.paper} sheet"
        else:
            where = (
                f"on {self.sheets} {self.paper} sheets ({self.columns} across, {self.rows} down, "
                f"overlapping by {OVERLAP_MM:.0f} mm: cut along the crop marks and tape them "
                "together)"
            )
        bigger = f"{title} is larger than {asked}: " if self.paper != asked else f"{title} "
        return f"{bigger}at true scale {where}, then a page of corner marker cards"


def layout_for(board: Board, paper: str = "A3") -> PrintLayout:
    """One sheet of `paper` when the board fits (portrait or landscape), else A4 tiles."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {sorted(PAPERS)}, got {paper!r}")
    pw, ph = PAPERS[paper]
    for orient, (w, h) in (("P", (pw, ph)), ("L", (ph, pw))):
        if board.width <= w - 2 * MARGIN_MM and board.height <= h - 2 * MARGIN_MM - 12:
            return PrintLayout(paper, orient)
    tw, th = PAPERS["A4"]
    cw, ch = tw - 2 * MARGIN_MM, th - 2 * MARGIN_MM - 10  # room for the caption line
    cols = max(1, math.ceil((board.width - OVERLAP_MM) / (cw - OVERLAP_MM)))
    rows = max(1, math.ceil((board.height - OVERLAP_MM) / (ch - OVERLAP_MM)))
    return PrintLayout("A4", "P", cols, rows)


def write_board_pdf(
    board: Board, path: str | Path, paper: str = "A3", labels: bool = False
) -> Path:
    """Write the board at true scale; returns the path. `paper` is "A3" or "A4"; `labels`
    prints each space's id beside it (the ids the referee's texts use)."""
    layout = layout_for(board, paper)
    path = Path(path)
    art = render_board(board, PRINT_PX_PER_MM, labels=labels)
    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_title(f"boardref board: {board.name}")
    if layout.sheets == 1:
        pw, ph = PAPERS[paper]
        w, h = (pw, ph) if layout.orientation == "P" else (ph, pw)
        pdf.add_page(orientation=layout.orientation, format=paper)
        x = (w - board.width) / 2
        y = MARGIN_MM
        pdf.image(_png(art), x=x, y=y, w=board.width, h=board.height)
        _crop_marks(pdf, x, y, board.width, board.height)
        _scale_bar(pdf, MARGIN_MM, min(h - MARGIN_MM - 4, y + board.height + 9))
    else:
        _tiles(pdf, board, art, layout)
    _marker_page(pdf, board)
    pdf.output(str(path))
    return path


def _tiles(pdf: FPDF, board: Board, art: np.ndarray, layout: PrintLayout) -> None:
    """Cover the board with portrait A4 pages; neighbours overlap by OVERLAP_MM."""
    pw, ph = PAPERS["A4"]
    cw, ch = pw - 2 * MARGIN_MM, ph - 2 * MARGIN_MM - 10  # room for the caption line
    step_x, step_y = cw - OVERLAP_MM, ch - OVERLAP_MM
    cols, rows = layout.columns, layout.rows
    ppm = art.shape[1] / board.width
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * step_x, r * step_y
            w = min(cw, board.width - x0)
            h = min(ch, board.height - y0)
            crop = art[
                round(y0 * ppm) : round((y0 + h) * ppm), round(x0 * ppm) : round((x0 + w) * ppm)
            ]
            pdf.add_page(orientation="P", format="A4")
            pdf.image(_png(crop), x=MARGIN_MM, y=MARGIN_MM, w=w, h=h)
            _crop_marks(pdf, MARGIN_MM, MARGIN_MM, w, h)
            pdf.set_font("helvetica", size=8)
            pdf.text(
                MARGIN_MM,
                ph - MARGIN_MM - 2,
                f"{board.name}: tile row {r + 1}/{rows}, column {c + 1}/{cols}; "
                f"overlap {OVERLAP_MM:.0f} mm with the next tile",
            )
            if r == 0 and c == 0:
                _scale_bar(pdf, MARGIN_MM + 90, ph - MARGIN_MM - 6)


def _marker_page(pdf: FPDF, board: Board) -> None:
    """The four corner markers as cards, at their printed size, with quiet zone and labels."""
    pdf.add_page(orientation="P", format="A4")
    pdf.set_font("helvetica", size=11)
    pdf.text(MARGIN_MM, MARGIN_MM + 4, f"boardref corner markers: {board.name}")
    pdf.set_font("helvetica", size=8)
    pdf.text(
        MARGIN_MM,
        MARGIN_MM + 9,
        "Cut out and place each card at its corner of the board, printed side up, "
        "square to the board's edges.",
    )
    size = board.marker_size
    card = size + 2 * QUIET_ZONE_MM + 10
    for k, marker_id in enumerate(board.marker_ids):
        col, row = k % 2, k // 2
        x = MARGIN_MM + 10 + col * (card + 20)
        y = MARGIN_MM + 20 + row * (card + 20)
        pdf.set_draw_color(150, 150, 150)
        pdf.set_line_width(0.2)
        pdf.rect(x, y, card, card)
        img = marker_image(marker_id, 6 * 50)
        pdf.image(_png(img), x=x + 5 + QUIET_ZONE_MM, y=y + 5 + QUIET_ZONE_MM, w=size, h=size)
        pdf.set_font("helvetica", size=7)
        pdf.text(x + 2, y + card - 1.5, f"id {marker_id} - {CORNERS[k]}")
    _scale_bar(pdf, MARGIN_MM + 10, MARGIN_MM + 20 + 2 * (card + 20) + 10)
