# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Pictures of a simulated exchange phase, as the command draws them
(docs/pictures.md): the phase timeline (Trace) and the 23 x 64 physical
tile grid (Heatmap), both SVG that a notebook shows (_repr_svg_).

One id convention, the command's: tiles are named by their physical id
(as the simulator's hazards and `plan schedule`'s tables name them), and
every tile's hover text gives both ids, "physical 260 (logical 100, row
4)". Times are exchange events, counted from each tile's sync: what the
simulator's model says, not a measurement."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from ._core import Error, lib
from .plan import _logical_of as _logical

if TYPE_CHECKING:
    from .xsim import Action, Hazard

__all__ = ["Trace", "Heatmap"]

TILES: int = lib.IPUXCOM_TILES
PHYS_ROWS: int = lib.IPUXCOM_PHYS_ROWS
PHYS_COLS: int = lib.IPUXCOM_PHYS_COLS
_SCTL_WIDE = 4       # IPUXCOM_SCTL_WIDE: sctl bit 2, a send of 64-bit items

def tile_name(physical: int) -> str:
    """A tile as every picture's hover text names it: "physical 260 (logical 100, row 4)"."""
    if not 0 <= physical < TILES:
        return f"physical {physical}"
    return f"physical {physical} (logical {_logical(physical)}, row {physical // PHYS_COLS})"


def _esc(s: str) -> str:
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _head(width: float, height: float, title: str) -> List[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
            f'font-family="sans-serif" font-size="11">',
            f"<title>{_esc(title)}</title>",
            f'<rect class="background" width="{width:.0f}" height="{height:.0f}" '
            f'fill="#ffffff"/>']


def _tick_step(span: int, most: int = 10) -> int:
    """A round step (1, 2, 5 x 10^k events) giving at most @most ticks over @span."""
    step = 1
    while True:
        for m in (1, 2, 5):
            if span / (step * m) <= most:
                return step * m
        step *= 10


# ------------------------------------------------------------------ timeline

# Colours: the command's (docs/pictures.md: errors red, notes yellow).
_C_SEND = "#e6550d"
_C_MUX = "#6baed6"
_C_RECV = "#756bb1"
_C_PIC = "#31a354"
_C_END = "#000000"
_C_ERROR = "#d62728"
_C_NOTE = "#e0a020"
_C_BAND_ERROR = "#fde0dd"
_C_BAND_NOTE = "#fff3cd"
_C_BAND = ("#f4f6f8", "#ffffff")

_LANE_H = 7      # one sub-lane (a send lane, the mux lane, the receive lane)
_LANE_GAP = 1
_BAND_PAD = 3


@dataclass(frozen=True)
class ReceiveRun:
    """Words written into one tile's SRAM as one run, as the command's trace
    draws a receive: consecutive events and addresses from one source (the
    two words of a 64-bit item, or anything else landing at one event, in
    the run). source is None when the run mixes sources."""
    tile: int
    first_event: int
    last_event: int
    words: int
    items64: int
    source: Optional[int]
    first_source: int
    addr: int
    last_addr: int
    src_addr: int
    send_event: int


def receive_runs(writes: npt.NDArray[np.void]) -> List[ReceiveRun]:
    """The runs of receives in @writes (Simulator.writes()), tile by tile."""
    if not len(writes):
        return []
    order = np.lexsort((writes["event"], writes["tile"]))
    w = writes[order]
    tile = w["tile"].astype(np.int64)
    ev = w["event"].astype(np.int64)
    src = w["src_tile"].astype(np.int64)
    addr = w["addr"].astype(np.int64)
    runs: List[ReceiveRun] = []
    i, n = 0, len(w)
    while i < n:
        j = i + 1
        items64, one = 0, True
        while j < n and tile[j] == tile[j - 1] and (
                ev[j] == ev[j - 1] or
                (ev[j] == ev[j - 1] + 1 and src[j] == src[i] and src[j - 1] == src[i] and
                 addr[j] == addr[j - 1] + 4)):
            items64 += int(ev[j] == ev[j - 1])
            one = one and src[j] == src[i]
            j += 1
        runs.append(ReceiveRun(int(tile[i]), int(ev[i]), int(ev[j - 1]), j - i, items64,
                               int(src[i]) if one else None, int(src[i]), int(addr[i]),
                               int(addr[j - 1]), int(w["src_addr"][i]),
                               max(int(w["send_event"][i]), 0)))
        i = j
    return runs


@dataclass
class _Band:
    tile: int
    y: float
    send_lanes: int
    sends: List[Tuple["Action", int]]        # (send, lane)
    muxes: List[Tuple["Action", int]]        # (mux selection, its window's end, exclusive)
    pics: List["Action"]
    runs: List[ReceiveRun]
    hazards: List["Hazard"]

    @property
    def height(self) -> int:
        return (self.send_lanes + 2) * (_LANE_H + _LANE_GAP) + 2 * _BAND_PAD

    def lane_y(self, k: int) -> float:
        """Top of sub-lane @k: the send lanes, then mux, then receive."""
        return self.y + _BAND_PAD + k * (_LANE_H + _LANE_GAP)


@dataclass
class Trace:
    """One simulated phase as pictures: the actions, writes and each tile's end.

    _repr_svg_() (a notebook shows it) draws the phase timeline as the
    command's `--trace` lays it out: a band per physical tile that acts,
    receives or has a hazard, with its sends (one lane each when they
    overlap, so a send conflict shows both), mux windows, receives (runs
    of SRAM writes; the simulator logs them with log_writes=True), PIC
    settings and its br $m10; hazards on top in red (errors) or yellow
    (notes); a time axis in exchange events. Hover anything for its
    details and both ids of its tile. heatmap() puts per-tile counts on
    the physical grid.
    """
    name: str
    events: int
    actions: List["Action"]
    writes: npt.NDArray[np.void]
    ends: Dict[int, int]
    hazards: List["Hazard"]
    writes_logged: Optional[bool] = None

    def tiles(self) -> List[int]:
        """Every physical tile that sends, sets a mux or PIC, receives or has
        a hazard, in physical order: the timeline's bands."""
        t = {a.tile for a in self.actions}
        t.update(int(x) for x in np.unique(self.writes["tile"]))
        t.update(z.tile for z in self.hazards if 0 <= z.tile < TILES)
        return sorted(t)

    def lanes(self) -> List[int]:
        """The same as tiles() (the timeline's bands, physical ids)."""
        return self.tiles()

    def _shown(self, tiles: List[int], max_tiles: Optional[int]) -> List[int]:
        if max_tiles is None or len(tiles) <= max_tiles:
            return tiles
        errors = {z.tile for z in self.hazards if z.severity == "error"}
        notes = {z.tile for z in self.hazards} - errors
        first = [t for t in tiles if t in errors] + [t for t in tiles if t in notes]
        rest = [t for t in tiles if t not in errors and t not in notes]
        return sorted((first + rest)[:max(max_tiles, 0)])

    def _bands(self, shown: List[int]) -> List[_Band]:
        want = set(shown)
        sends: Dict[int, List["Action"]] = {}
        muxes: Dict[int, List["Action"]] = {}
        pics: Dict[int, List["Action"]] = {}
        for a in self.actions:
            if a.tile in want:
                by_kind = {"send": sends, "mux": muxes, "pic": pics}[a.kind]
                by_kind.setdefault(a.tile, []).append(a)
        runs: Dict[int, List[ReceiveRun]] = {}
        for r in receive_runs(self.writes):
            if r.tile in want:
                runs.setdefault(r.tile, []).append(r)
        hz: Dict[int, List["Hazard"]] = {}
        for z in self.hazards:
            if z.tile in want:
                hz.setdefault(z.tile, []).append(z)
        bands = []
        for t in shown:
            # a send overlapping an earlier one of its tile takes the next free lane
            placed: List[Tuple["Action", int]] = []
            lane_end: List[int] = []
            for a in sorted(sends.get(t, []), key=lambda a: a.event):
                k = next((i for i, e in enumerate(lane_end) if e <= a.event), len(lane_end))
                if k == len(lane_end):
                    lane_end.append(0)
                lane_end[k] = a.event + max(a.words, 1)
                placed.append((a, k))
            # a mux window: from a selection to the next mux action, or past br $m10
            win: List[Tuple["Action", int]] = []
            lst = sorted(muxes.get(t, []), key=lambda a: a.event)
            for a, b in zip(lst, lst[1:] + [None]):
                if a.value is not None:
                    end = (b.event if b is not None else
                           max(self.ends.get(t, a.event), a.event) + 1)
                    win.append((a, end))
            bands.append(_Band(t, 0.0, max(len(lane_end), 1), placed, win, pics.get(t, []),
                               runs.get(t, []), hz.get(t, [])))
        return bands

    def svg(self, max_tiles: Optional[int] = 64, width: int = 1000, *,
            max_lanes: Optional[int] = None) -> str:
        """The timeline as SVG text: at most @max_tiles tile bands (None: all;
        max_lanes is its old name), those with hazards first, the cut stated
        on the picture."""
        if max_lanes is not None:
            max_tiles = max_lanes
        tiles = self.tiles()
        shown = self._shown(tiles, max_tiles)
        bands = self._bands(shown)
        errors = sum(1 for z in self.hazards if z.severity == "error")
        notes = len(self.hazards) - errors
        hidden_hz = sum(1 for z in self.hazards if z.tile not in set(shown))

        # the time axis covers the phase and everything drawn
        last = max([self.events] + [a.event + max(a.words, 1) for a in self.actions] +
                   [e + 1 for e in self.ends.values()] +
                   [int(self.writes["event"].max()) + 1 if len(self.writes) else 0] +
                   [z.event + 1 for z in self.hazards])
        left, right, top = 190, 20, 112
        plot_w = max(width - left - right, 100)
        scale = plot_w / max(last, 1)

        def x(ev: int) -> float:
            return left + max(ev, 0) * scale

        y = float(top)
        for b in bands:
            b.y = y
            y += b.height
        axis_y = y + 6
        height = axis_y + 44

        title = f"{self.name}: exchange phase timeline"
        out = _head(width, height, title)
        summary = (f"{self.events} events, {sum(1 for a in self.actions if a.kind == 'send')} "
                   f"sends, {len(self.writes)} words written, {errors} error"
                   f"{'' if errors == 1 else 's'}, {notes} note{'' if notes == 1 else 's'}")
        out.append(f'<text x="8" y="20" font-size="15" font-weight="bold">{_esc(self.name)}'
                   f'</text>')
        red = f' fill="{_C_ERROR}"'
        out.append(f'<text class="summary" x="8" y="38"{red if errors else ""}>'
                   f'{_esc(summary)} (the exchange simulator\'s model, not a measurement)'
                   f'</text>')
        out.append('<text class="ids" x="8" y="54" fill="#555555">tiles by physical id '
                   '(logical in parentheses); hover anything for both ids and details; time '
                   'in exchange events from each tile\'s sync</text>')
        if len(shown) < len(tiles):
            cut = (f"{len(shown)} of {len(tiles)} tiles shown (those with hazards first, "
                   f"then by physical id; svg(max_tiles=None) draws every one)")
            if hidden_hz:
                cut += f"; {hidden_hz} hazards on tiles not shown"
        else:
            cut = (f"all {len(tiles)} tiles that send, receive, set a mux or PIC, or have a "
                   f"hazard")
        if self.writes_logged is False or (self.writes_logged is None and not len(self.writes)):
            cut += "; receives not drawn: writes were not logged (log_writes=True)"
        out.append(f'<text class="cut" x="8" y="70"{red if hidden_hz else ""}>{_esc(cut)}'
                   f'</text>')
        out.extend(self._legend(8, 84))

        # bands: background, labels, then what each tile did; hazards last (on top)
        for i, b in enumerate(bands):
            severities = {z.severity for z in b.hazards}
            fill = (_C_BAND_ERROR if "error" in severities else
                    _C_BAND_NOTE if severities else _C_BAND[i % 2])
            name = tile_name(b.tile)
            out.append(f'<g class="tile" id="tile{b.tile}" data-physical="{b.tile}" '
                       f'data-logical="{_logical(b.tile)}">')
            out.append(f'<rect class="band" x="0" y="{b.y:.1f}" width="{width}" '
                       f'height="{b.height}" fill="{fill}"><title>{_esc(name)}</title></rect>')
            colour = f' fill="{_C_ERROR}"' if "error" in severities else ""
            out.append(f'<text class="label" x="8" y="{b.y + _BAND_PAD + 9:.1f}"{colour}>'
                       f'tile {b.tile} (logical {_logical(b.tile)})'
                       f'<title>{_esc(name)}</title></text>')
            for k, lab in ([(k, "send" if k == 0 else f"send {k + 1}")
                            for k in range(b.send_lanes)] +
                           [(b.send_lanes, "mux"), (b.send_lanes + 1, "receive")]):
                out.append(f'<text class="lane" x="{left - 4}" y="{b.lane_y(k) + 6:.1f}" '
                           f'font-size="7" text-anchor="end" fill="#777777">{lab}</text>')
            for a, end in b.muxes:
                src = a.value if a.value is not None else 0
                out.append(f'<rect class="mux" x="{x(a.event):.1f}" '
                           f'y="{b.lane_y(b.send_lanes):.1f}" '
                           f'width="{max((end - a.event) * scale, 1):.1f}" height="{_LANE_H}" '
                           f'fill="{_C_MUX}" data-tile="{b.tile}" data-event="{a.event}">'
                           f'<title>mux &lt;- {_esc(tile_name(src))} during events '
                           f'{a.event}..{end - 1} on {_esc(name)} (program {a.program}, word '
                           f'{a.word})</title></rect>')
            for a, k in b.sends:
                wide = bool(a.dir & _SCTL_WIDE)
                words = a.words * (2 if wide else 1)
                cls, edge = ("send", "") if k == 0 else ("send overlapping",
                                                         f' stroke="{_C_ERROR}"')
                out.append(f'<rect class="{cls}" x="{x(a.event):.1f}" y="{b.lane_y(k):.1f}" '
                           f'width="{max(a.words * scale, 1):.1f}" height="{_LANE_H}" '
                           f'fill="{_C_SEND}"{edge} data-tile="{b.tile}" '
                           f'data-event="{a.event}" data-words="{words}">'
                           f'<title>send {words} word{"" if words == 1 else "s"}'
                           f'{" (64-bit)" if wide else ""} from {a.value or 0:#x} at events '
                           f'{a.event}..{a.event + max(a.words, 1) - 1} on {_esc(name)}, '
                           f'direction {a.dir & ~_SCTL_WIDE}, stream {a.stream} (program '
                           f'{a.program}, word {a.word})'
                           f'{"; overlaps an earlier send of this tile" if k else ""}'
                           f'</title></rect>')
            ry = b.lane_y(b.send_lanes + 1)
            for r in b.runs:
                frm = (tile_name(r.source) if r.source is not None else
                       f"several tiles (first {tile_name(r.first_source)})")
                out.append(f'<rect class="receive" x="{x(r.first_event):.1f}" y="{ry:.1f}" '
                           f'width="{max((r.last_event - r.first_event + 1) * scale, 1):.1f}" '
                           f'height="{_LANE_H}" fill="{_C_RECV}" data-tile="{b.tile}" '
                           f'data-event="{r.first_event}" data-words="{r.words}">'
                           f'<title>receive {r.words} word{"" if r.words == 1 else "s"} from '
                           f'{_esc(frm)} on {_esc(name)} at events '
                           f'{r.first_event}..{r.last_event}: written to {r.addr:#x}'
                           f'{f" to {r.last_addr:#x}" if r.words > 1 else ""} ({r.items64} '
                           f'64-bit item{"" if r.items64 == 1 else "s"}; source '
                           f'{r.src_addr:#x}, sent at event {r.send_event})</title></rect>')
            for a in b.pics:
                out.append(f'<line class="pic" x1="{x(a.event):.1f}" x2="{x(a.event):.1f}" '
                           f'y1="{ry - 1:.1f}" y2="{ry + _LANE_H + 1:.1f}" stroke="{_C_PIC}" '
                           f'stroke-width="2" data-tile="{b.tile}" data-event="{a.event}">'
                           f'<title>pic {a.value or 0:#x} at event {a.event} on {_esc(name)}'
                           f'</title></line>')
            end = self.ends.get(b.tile, -1)
            if end >= 0:
                out.append(f'<line class="end" x1="{x(end):.1f}" x2="{x(end):.1f}" '
                           f'y1="{b.y + 1:.1f}" y2="{b.y + b.height - 1:.1f}" stroke="{_C_END}" '
                           f'data-tile="{b.tile}" data-event="{end}"><title>br $m10 at event '
                           f'{end} on {_esc(name)}</title></line>')
            out.append("</g>")

        # the time axis, with light grid lines across every band
        step = _tick_step(last)
        out.append('<g class="axis">')
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{axis_y:.1f}" '
                   f'y2="{axis_y:.1f}" stroke="#333333"/>')
        for ev in range(0, last + 1, step):
            out.append(f'<line class="grid" x1="{x(ev):.1f}" x2="{x(ev):.1f}" y1="{top - 4}" '
                       f'y2="{axis_y + 4:.1f}" stroke="#cccccc" stroke-width="0.5"/>')
            out.append(f'<text class="tick" x="{x(ev):.1f}" y="{axis_y + 16:.1f}" '
                       f'text-anchor="middle">{ev}</text>')
        out.append(f'<text class="axis-label" x="{left + plot_w / 2:.1f}" '
                   f'y="{axis_y + 34:.1f}" text-anchor="middle">exchange events (from each '
                   f'tile\'s sync; the phase has {self.events})</text>')
        out.append("</g>")

        # hazards last, so that nothing covers them: one marker per tile and
        # event, red when any of its hazards is an error, each hazard in its text
        out.append('<g class="hazards">')
        for b in bands:
            at: Dict[int, List["Hazard"]] = {}
            for z in b.hazards:
                at.setdefault(z.event, []).append(z)
            for ev, zs in sorted(at.items()):
                sev = "error" if any(z.severity == "error" for z in zs) else "note"
                c = _C_ERROR if sev == "error" else _C_NOTE
                text = "\n".join(
                    f"{z.severity} {z.kind} on {tile_name(z.tile)}"
                    + (f" (the other tile: {tile_name(z.other)})"
                       if z.other is not None and 0 <= z.other < TILES else "")
                    + f": {z.text}" for z in zs)
                hx = x(ev)
                out.append(f'<g class="hazard {sev}" data-tile="{b.tile}" data-event="{ev}" '
                           f'data-hazards="{len(zs)}" data-errors='
                           f'"{sum(1 for z in zs if z.severity == "error")}" data-kinds='
                           f'"{" ".join(sorted({z.kind for z in zs}))}">'
                           f'<title>{_esc(text)}</title>'
                           f'<rect class="hazard-bar" x="{hx - 1.5:.1f}" y="{b.y:.1f}" width="3" '
                           f'height="{b.height}" fill="{c}" opacity="0.85"/>'
                           f'<path class="hazard-mark" d="M{hx - 5:.1f},{b.y:.1f} '
                           f'h10 l-5,6 z" fill="{c}"/></g>')
        out.append("</g></svg>")
        return "\n".join(out)

    @staticmethod
    def _legend(x0: int, y0: int) -> List[str]:
        items = [("send", _C_SEND, "send"), ("send overlapping", _C_SEND,
                 "an overlapping send (own lane)"), ("mux", _C_MUX, "mux window"),
                 ("receive", _C_RECV, "receive (SRAM writes)"), ("pic", _C_PIC, "PIC setting"),
                 ("end", _C_END, "br $m10"), ("error", _C_ERROR, "error hazard"),
                 ("note", _C_NOTE, "note hazard")]
        out = ['<g class="legend-items">']
        xx = x0
        for key, colour, text in items:
            stroke = f' stroke="{_C_ERROR}"' if key == "send overlapping" else ""
            w = 3 if key in ("pic", "end", "error", "note") else 14
            out.append(f'<rect class="legend" data-key="{key}" x="{xx}" y="{y0}" width="{w}" '
                       f'height="{_LANE_H + 2}" fill="{colour}"{stroke}/>')
            out.append(f'<text x="{xx + w + 4}" y="{y0 + 8}">{_esc(text)}</text>')
            xx += w + 18 + round(6.5 * len(text))
        out.append("</g>")
        return out

    def _repr_svg_(self) -> str:
        return self.svg()

    def heatmap(self, what: str = "words") -> "Heatmap":
        """Per physical tile: "words" sent + written, "sends" (words sent) or
        "writes" (words written), drawn as the command's heatmaps are."""
        if what not in ("words", "sends", "writes"):
            raise Error(22, f"heatmap {what!r} unknown (words, sends, writes)", "what", None,
                        "invalid argument", "Trace.heatmap")
        sent = np.zeros(TILES, dtype=np.int64)
        written = np.zeros(TILES, dtype=np.int64)
        for a in self.actions:
            if a.kind == "send":   # a 64-bit send moves two words per event
                sent[a.tile] += a.words * (2 if a.dir & _SCTL_WIDE else 1)
        if len(self.writes):
            np.add.at(written, self.writes["tile"].astype(np.int64), 1)
        flat = {"words": sent + written, "sends": sent, "writes": written}[what]
        tips = [f"{int(flat[t])} words ({int(sent[t])} sent, {int(written[t])} written)"
                for t in range(TILES)]
        label, idle = {"words": ("words sent and written", "neither sends nor receives"),
                       "sends": ("words sent", "sends nothing"),
                       "writes": ("words written", "receives nothing")}[what]
        return Heatmap(f"{self.name}: {label} per physical tile ({int(flat.sum())} in all, at "
                       f"most {int(flat.max())})", flat.reshape(PHYS_ROWS, PHYS_COLS),
                       unit="words", tips=tips, zero_text=f"0 words: the tile {idle}",
                       scale_label=f"{label} per tile (linear)")


# ------------------------------------------------------------------ heatmap

# The command's layout and colours (tools/heatmap.c).
_HM_CELL, _HM_PITCH, _HM_LEFT, _HM_TOP = 14, 16, 44, 72
_HM_SCALE_STEPS = 16
_HM_RAMP = [(255, 244, 200), (250, 180, 60), (220, 80, 30), (120, 20, 20)]
_HM_ZERO = "#d9e2ec"
_HM_ABSENT = "#ffffff"


def _ramp(v: float, vmax: float) -> str:
    """The command's colour of @v on the scale 0..@vmax (heatmap_scale_colour())."""
    if v <= 0 or vmax <= 0:
        return _HM_ZERO
    last = len(_HM_RAMP) - 1
    f = min(v, vmax) / vmax * last
    i = last - 1 if f >= last else int(f)
    t = f - i
    c = [math.floor(a + (b - a) * t + 0.5) for a, b in zip(_HM_RAMP[i], _HM_RAMP[i + 1])]
    return "#%02x%02x%02x" % (c[0], c[1], c[2])


@dataclass
class Heatmap:
    """A quantity per physical tile on the 23 x 64 grid (values: int array).

    _repr_svg_() draws it as the command's heatmaps are (`image inspect
    --heatmap`, docs/pictures.md): one square per physical tile, row = id /
    64 downwards, column = id % 64 to the right, labelled every 8 columns
    and every row; hovering a square shows its physical and logical id,
    row, column and value; a legend (the colour of 0) and a linear colour
    scale below the grid.
    """
    title: str
    values: npt.NDArray[np.int64]
    unit: str = ""
    tips: Optional[Sequence[str]] = None
    zero_text: Optional[str] = None
    scale_label: Optional[str] = None

    def _colour(self, v: float, vmax: float) -> str:
        return _ramp(v, vmax)

    def svg(self) -> str:
        """The heatmap as SVG text, laid out as the command's."""
        vals = np.asarray(self.values)
        rows, cols = vals.shape
        flat = vals.reshape(-1)
        vmax = int(flat.max()) if flat.size and flat.max() > 0 else 0
        grid_w, grid_h = cols * _HM_PITCH, rows * _HM_PITCH
        width = _HM_LEFT + grid_w + 24
        ly = _HM_TOP + grid_h + 24
        height = ly + 20 + (48 if vmax else 0) + 8
        unit = f" {self.unit}" if self.unit else ""
        out = _head(width, height, self.title)
        out.append(f'<text x="{_HM_LEFT}" y="24" font-size="15" font-weight="bold">'
                   f'{_esc(self.title)}</text>')
        out.append(f'<text x="{_HM_LEFT}" y="42" fill="#555555">physical tiles: row = id / '
                   f'{cols} (down), column = id % {cols} (right); hover a tile for its ids and '
                   f'value</text>')
        for c in range(0, cols, 8):
            out.append(f'<text x="{_HM_LEFT + c * _HM_PITCH}" y="{_HM_TOP - 6}">{c}</text>')
        for r in range(rows):
            out.append(f'<text x="{_HM_LEFT - 6}" y="{_HM_TOP + r * _HM_PITCH + _HM_CELL - 3}" '
                       f'text-anchor="end">{r}</text>')
        out.append('<g class="tiles">')
        for t in range(rows * cols):
            r, c = divmod(t, cols)
            v = int(flat[t])
            ids = (f"physical {t} (logical {_logical(t)}, row {r}, column {c})" if t < TILES
                   else f"physical {t} (row {r}, column {c})")
            tip = self.tips[t] if self.tips is not None and t < len(self.tips) else f"{v}{unit}"
            out.append(f'<rect class="tile" id="t{t}" x="{_HM_LEFT + c * _HM_PITCH}" '
                       f'y="{_HM_TOP + r * _HM_PITCH}" width="{_HM_CELL}" height="{_HM_CELL}" '
                       f'fill="{self._colour(v, vmax)}"><title>{_esc(ids)}: {_esc(tip)}'
                       f'</title></rect>')
        out.append("</g>")
        zero = self.zero_text or f"0{unit}"
        out.append(f'<rect class="legend" x="{_HM_LEFT}" y="{ly}" width="{_HM_CELL}" '
                   f'height="{_HM_CELL}" fill="{_HM_ZERO}" stroke="#888888" '
                   f'stroke-width="0.5"/>')
        out.append(f'<text x="{_HM_LEFT + _HM_CELL + 6}" y="{ly + _HM_CELL - 3}">'
                   f'{_esc(zero)}</text>')
        if vmax:
            y = ly + 20
            label = self.scale_label or f"{self.unit or 'value'} per tile (linear)"
            out.append(f'<text x="{_HM_LEFT}" y="{y + 10}">{_esc(label)}</text>')
            for i in range(_HM_SCALE_STEPS):
                v = vmax * (i + 1) // _HM_SCALE_STEPS
                out.append(f'<rect class="scale" x="{_HM_LEFT + i * 20}" y="{y + 16}" '
                           f'width="20" height="{_HM_CELL}" fill="{_ramp(v, vmax)}"/>')
            out.append(f'<text x="{_HM_LEFT}" y="{y + 42}">1</text>')
            out.append(f'<text x="{_HM_LEFT + _HM_SCALE_STEPS * 20}" y="{y + 42}" '
                       f'text-anchor="end">{vmax}</text>')
        out.append("</svg>")
        return "\n".join(out)

    def _repr_svg_(self) -> str:
        return self.svg()
