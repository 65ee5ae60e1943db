# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The Python pictures at the command's level (issue 33), rendered and
parsed with xml.etree as the command's host tests parse its pictures:

- the timeline shows hazards in red, drawn after everything else (on top);
- two conflicting sends of one tile are both visible, on lanes of their own;
- writes are drawn (receive runs whose words add up to the writes logged);
- every tile that does something has a band, or the picture says how many
  of how many it shows;
- one id convention (physical, as the simulator's hazards and the
  command's tables), both ids on hover;
- a time axis whose ticks place the actions where their events are;
- the heatmap laid out as `image inspect --heatmap` draws it: same grid,
  labels, hover ids, legend, scale and colours.
"""
import random
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import ipuxcom

S = "{http://www.w3.org/2000/svg}"
RED = "#d62728"

# docs/pictures.md's hazard example: the stagger of 1 event makes tile 0's
# two sends conflict, and tiles 8 to 11 take the wrong words.
HAZARD_LIST = "physical\nmulticast 0 8 8 9\nmulticast 0 8 10 11\n"


def classes(e):
    return (e.get("class") or "").split()


def find(root, cls, tag=None):
    return [e for e in root.iter() if cls in classes(e) and (tag is None or e.tag == S + tag)]


def title(e):
    t = e.find(S + "title")
    return t.text if t is not None else ""


@pytest.fixture(scope="module")
def hazard_phase():
    res, _, sim = ipuxcom.schedule_text(HAZARD_LIST).stagger(1)
    return res, sim, ET.fromstring(sim.trace("stagger").svg())


def test_hazards_are_red_and_on_top(hazard_phase):
    res, sim, root = hazard_phase
    assert res.errors == 15 and len(res.hazards) == 15
    marks = find(root, "hazard", "g")
    # every hazard is in a marker (one per tile and event), each error counted once
    assert sum(int(m.get("data-hazards")) for m in marks) == 15
    assert sum(int(m.get("data-errors")) for m in marks) == res.errors
    for m in marks:
        assert "error" in classes(m)
        assert {r.get("fill") for r in m.iter(S + "rect")} == {RED}
        assert {p.get("fill") for p in m.iter(S + "path")} == {RED}
    assert {(int(m.get("data-tile")), int(m.get("data-event"))) for m in marks} == \
        {(z.tile, z.event) for z in res.hazards}
    # each hazard's own text is in its marker's hover text
    texts = "\n".join(title(m) for m in marks)
    assert all(z.text in texts for z in res.hazards)
    # on top: after every send, mux window, receive, PIC setting and br $m10
    order = list(root.iter())
    drawn = [i for i, e in enumerate(order)
             if set(classes(e)) & {"send", "mux", "receive", "pic", "end", "band", "label"}]
    first_mark = min(order.index(m) for m in marks)
    assert drawn and max(drawn) < first_mark
    # the summary says it, in red
    summary = find(root, "summary", "text")[0]
    assert "15 errors" in summary.text and summary.get("fill") == RED


def test_conflicting_sends_are_both_visible(hazard_phase):
    res, sim, root = hazard_phase
    conflict = [z for z in res.hazards if z.kind == "send-conflict"]
    assert [z.tile for z in conflict] == [0]
    sends = [e for e in find(root, "send", "rect") if e.get("data-tile") == "0"]
    assert len(sends) == 2 == sum(1 for a in sim.actions() if a.kind == "send" and a.tile == 0)
    a, b = sorted(sends, key=lambda e: float(e.get("y")))
    # both at event 27, on lanes that do not overlap: neither covers the other
    assert a.get("data-event") == b.get("data-event") == "27"
    assert float(a.get("y")) + float(a.get("height")) <= float(b.get("y"))
    assert "overlapping" in classes(b) and "overlapping" not in classes(a)
    assert {re.search(r"from (0x[0-9a-f]+)", title(e)).group(1) for e in sends} == \
        {"0x80000", "0x80020"}


def test_writes_are_drawn():
    s = ipuxcom.schedule_text("p2p 0 5 10\nmulticast 1 20 6 7\np2p 9 10 64 src=0x60000 dst=0x70000\n")
    res, bad, sim = s.verify()
    assert res.ok and bad == 0
    w = sim.writes()
    root = ET.fromstring(sim.trace().svg())
    recv = find(root, "receive", "rect")
    assert recv and sum(int(e.get("data-words")) for e in recv) == len(w)
    assert len(w) == sum(t.count * len(t.receivers) for t in s.transfers)
    per_tile = {}
    for e in recv:
        per_tile[int(e.get("data-tile"))] = per_tile.get(int(e.get("data-tile")), 0) + \
            int(e.get("data-words"))
    assert per_tile == {int(t): int(n) for t, n in zip(*np.unique(w["tile"],
                                                                  return_counts=True))}
    # the hover text says where the words came from and went
    t = title(recv[0])
    assert re.match(r"receive \d+ words? from physical \d+ \(logical \d+, row \d+\) on "
                    r"physical \d+ \(logical \d+, row \d+\) at events \d+\.\.\d+: written "
                    r"to 0x[0-9a-f]+ to 0x[0-9a-f]+ ", t), t
    # without logged writes the picture says why it shows no receive
    sim2 = ipuxcom.Simulator()
    sim2.add_p2p(ipuxcom.plan_p2p(0, 5, 10), 0x60000, 0x50000)
    sim2.run()
    root2 = ET.fromstring(sim2.trace().svg())
    assert not find(root2, "receive", "rect")
    assert "writes were not logged (log_writes=True)" in find(root2, "cut", "text")[0].text


def bands(root):
    return {int(g.get("data-physical")): g for g in find(root, "tile", "g")}


def test_every_active_tile_or_the_cut_is_on_the_picture():
    # the case: a 2,000-transfer set
    rnd = random.Random(33)
    xfers = []
    while len(xfers) < 2000:
        s, r = rnd.randrange(1472), rnd.randrange(1472)
        if s != r:
            xfers.append(ipuxcom.Transfer(s, r, rnd.randrange(1, 9)))
    res, bad, sim = ipuxcom.schedule(xfers).verify()
    assert res.ok and bad == 0
    tr = sim.trace("2000 transfers")
    active = {ipuxcom.physical_id(t.sender) for t in xfers} | \
             {ipuxcom.physical_id(t.receivers) for t in xfers}
    assert set(tr.tiles()) == active and len(active) > 1000
    root = ET.fromstring(tr.svg())
    assert len(bands(root)) == 64
    cut = find(root, "cut", "text")[0].text
    assert cut.startswith(f"64 of {len(active)} tiles shown"), cut
    root = ET.fromstring(tr.svg(max_tiles=None))
    assert set(bands(root)) == active
    assert find(root, "cut", "text")[0].text.startswith(f"all {len(active)} tiles")
    # a cut keeps the tiles with hazards: two streams into one receiver
    sim = ipuxcom.Simulator(log_writes=True)
    sim.add_p2p(ipuxcom.plan_p2p(0, 5, 10), 0x60000, 0x50000)
    sim.add_p2p(ipuxcom.plan_p2p(1, 5, 10), 0x60000, 0x50040)
    res = sim.run()
    hz = {z.tile for z in res.hazards}
    root = ET.fromstring(sim.trace().svg(max_tiles=len(hz)))
    assert set(bands(root)) == hz
    assert find(root, "cut", "text")[0].text.startswith(f"{len(hz)} of "
                                                        f"{len(sim.trace().tiles())} tiles")


def test_one_id_convention_both_ids_on_hover(hazard_phase):
    res, sim, root = hazard_phase
    b = bands(root)
    assert set(b) == {0, 8, 9, 10, 11}      # physical ids, as the hazards name tiles
    for p, g in b.items():
        lg = ipuxcom.logical_id(p)
        assert int(g.get("data-logical")) == lg
        name = f"physical {p} (logical {lg}, row {p // 64})"
        assert title(find(g, "band", "rect")[0]) == name
        assert find(g, "label", "text")[0].text == f"tile {p} (logical {lg})"
        for e in g.iter():
            if set(classes(e)) & {"send", "mux", "receive", "pic", "end"}:
                assert f"on {name}" in title(e), title(e)
    for m in find(root, "hazard", "g"):
        p = int(m.get("data-tile"))
        assert f"on physical {p} (logical {ipuxcom.logical_id(p)}, row" in title(m)
    # mux windows name their source with both ids too
    mux = find(root, "mux", "rect")
    assert mux and all(f"mux <- physical 0 (logical {ipuxcom.logical_id(0)}, row 0)"
                       in title(e) for e in mux)


def test_time_axis_places_events(hazard_phase):
    res, sim, root = hazard_phase
    axis = find(root, "axis", "g")[0]
    ticks = [(float(t.get("x")), int(t.text)) for t in find(axis, "tick", "text")]
    assert ticks[0][1] == 0 and len(ticks) >= 3
    steps = {b[1] - a[1] for a, b in zip(ticks, ticks[1:])}
    assert len(steps) == 1
    step = steps.pop()
    assert ticks[-1][1] + step > res.events       # the axis covers the phase
    px = (ticks[-1][0] - ticks[0][0]) / (ticks[-1][1] - ticks[0][1])   # pixels per event

    def x_of(ev):
        return ticks[0][0] + ev * px

    assert "exchange events" in find(axis, "axis-label", "text")[0].text
    for e in find(root, "send", "rect") + find(root, "receive", "rect") + \
            find(root, "mux", "rect"):
        assert float(e.get("x")) == pytest.approx(x_of(int(e.get("data-event"))), abs=0.2)
    for e in find(root, "end", "line"):
        assert float(e.get("x1")) == pytest.approx(x_of(int(e.get("data-event"))), abs=0.2)
    for a in sim.actions():
        if a.kind == "send":
            assert any(e.get("data-event") == str(a.event) and
                       e.get("data-tile") == str(a.tile) for e in find(root, "send", "rect"))


def grid(root):
    return {e.get("id"): e for e in root.iter(S + "rect") if e.get("class") == "tile"}


def texts(root):
    return [t.text for t in root.iter(S + "text")]


def test_heatmap_is_the_commands(tool, tmp_path):
    # tile i differs from the shared image in (i % 23) * 8 bytes (pictures_test's images)
    rnd = np.random.default_rng(77)
    base = rnd.integers(0, 256, 2048, dtype=np.uint8)
    imgs = {}
    for i in range(1472):
        t = base.copy()
        t[1024:1024 + (i % 23) * 8] ^= np.uint8((i | 1) & 0xff)
        imgs[i] = t
    img = tmp_path / "a.ipuimg"
    img.write_bytes(ipuxcom.pack(imgs))
    svg = tmp_path / "c.svg"
    tool("image", "inspect", str(img), "--heatmap", str(svg))
    cmd = ET.parse(svg).getroot()
    cg = grid(cmd)
    values = np.array([int(re.search(r": (\d+) patch bytes", title(cg[f"t{t}"])).group(1))
                       for t in range(1472)])
    assert values.max() > 0
    hm = ipuxcom.Heatmap("patch bytes", values.reshape(23, 64), unit="patch bytes")
    py = ET.fromstring(hm.svg())
    pg = grid(py)
    assert set(pg) == set(cg) == {f"t{t}" for t in range(1472)}
    for t in range(1472):
        c, p = cg[f"t{t}"], pg[f"t{t}"]
        assert [p.get(k) for k in ("x", "y", "width", "height", "fill")] == \
            [c.get(k) for k in ("x", "y", "width", "height", "fill")], t
        # the hover ids: "physical N (logical L, row R, column C): "
        assert title(p).split(": ")[0] == title(c).split(": ")[0], t
        assert title(p) == f"{title(c).split(': ')[0]}: {values[t]} patch bytes"
    # the labels: the line under the title, columns every 8, every row
    assert [t for t in texts(py) if t.startswith("physical tiles:")] == \
        [t for t in texts(cmd) if t.startswith("physical tiles:")]
    nums = [t for t in texts(cmd) if t.isdigit()]
    assert [t for t in texts(py) if t.isdigit()] == nums
    # the legend and the colour scale
    for cls in ("legend", "scale"):
        assert [e.get("fill") for e in py.iter(S + "rect") if e.get("class") == cls] == \
            [e.get("fill") for e in cmd.iter(S + "rect") if e.get("class") == cls], cls


def test_phase_heatmap_labels_and_hover_ids():
    s = ipuxcom.schedule_text("p2p 0 5 10\nmulticast 1 20 6 7\n")
    res, bad, sim = s.verify()
    hm = sim.heatmap("words")
    root = ET.fromstring(hm.svg())
    g = grid(root)
    assert len(g) == 1472
    sent = written = 0
    for t in range(1472):
        m = re.fullmatch(r"physical (\d+) \(logical (\d+), row (\d+), column (\d+)\): "
                         r"(\d+) words \((\d+) sent, (\d+) written\)", title(g[f"t{t}"]))
        assert m, title(g[f"t{t}"])
        p, lg, r, c, v, s_, w_ = map(int, m.groups())
        assert (p, lg, r, c) == (t, ipuxcom.logical_id(t), t // 64, t % 64)
        assert v == s_ + w_ == hm.values[r, c]
        sent += s_
        written += w_
    assert sent == 30 and written == 50 == len(sim.writes())
    assert any(t.startswith("physical tiles: row = id / 64") for t in texts(root))
    assert [e for e in root.iter(S + "rect") if e.get("class") == "legend"]
    assert len([e for e in root.iter(S + "rect") if e.get("class") == "scale"]) == 16
    assert "(80 in all, at most 20)" in hm.title
    with pytest.raises(ipuxcom.Error):
        sim.trace().heatmap("reads")
