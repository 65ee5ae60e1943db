# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""The simulator's verdict, the scheduler and the demos from Python."""
import json
import pathlib
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import ipuxcom

LIST = "p2p 0 5 10\nmulticast 1 20 6 7\np2p 9 10 64 src=0x60000 dst=0x70000\n"


def test_schedule_equals_command(tool, tmp_path):
    f = tmp_path / "l.txt"
    f.write_text(LIST)
    j = json.loads(tool("plan", "schedule", str(f), "-j"))
    for s in (ipuxcom.schedule_text(LIST), ipuxcom.schedule(f),
              ipuxcom.schedule(pathlib.Path(str(f))), ipuxcom.schedule_text(LIST.encode())):
        assert s.events == j["events"]
        got = [(t.line, t.sender, list(t.receivers), t.start, t.first_arrival, t.last_write,
                t.gap) for t in s.transfers]
        want = [(t["line"], t["sender"], t["receivers"], t["start"], t["first_arrival"],
                 t["last_write"], t["gap"]) for t in j["transfers"]]
        assert got == want
    res, bad, sim = s.verify()
    assert res.ok and bad == 0
    assert res.events == j["simulated"]["events"]
    assert res.delivered == j["simulated"]["delivered"] == 4
    sres, sbad, _ = s.stagger(j["stagger_step"])
    assert sres.events == j["stagger"]["events"] and sbad == 0


def test_effort_schedule_equals_command(tool, tmp_path):
    # issue 34: effort=N is the command's --effort N (a bounded search)
    f = tmp_path / "l.txt"
    f.write_text(LIST)
    j = json.loads(tool("plan", "schedule", str(f), "--effort", "3", "-j"))
    assert j["scheduler"] == "default" and j["effort"] == 3
    for s in (ipuxcom.schedule_text(LIST, effort=3), ipuxcom.schedule(f, effort=3)):
        assert s.events == j["events"]
        assert [(t.start, t.last_write) for t in s.transfers] == \
            [(t["start"], t["last_write"]) for t in j["transfers"]]
        res, bad, _ = s.verify()
        assert res.ok and bad == 0 and res.delivered == 4
        assert s.events <= ipuxcom.schedule_text(LIST, quick=True).events
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.schedule_text(LIST, effort=65537)
    assert e.value.field == "effort" and "above the limit 65536" in e.value.message
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.schedule_text(LIST, effort=2, quick=True)
    assert e.value.field == "effort" and "with QUICK" in e.value.message


def test_quick_schedule_equals_command(tool, tmp_path):
    # issue 34: quick=True is the command's --quick (no search), and verifies
    f = tmp_path / "l.txt"
    f.write_text(LIST)
    j = json.loads(tool("plan", "schedule", str(f), "--quick", "-j"))
    assert j["scheduler"] == "quick"
    for s in (ipuxcom.schedule_text(LIST, quick=True), ipuxcom.schedule(f, quick=True)):
        assert s.events == j["events"]
        assert [(t.start, t.last_write) for t in s.transfers] == \
            [(t["start"], t["last_write"]) for t in j["transfers"]]
        res, bad, _ = s.verify()
        assert res.ok and bad == 0 and res.delivered == 4
        assert ipuxcom.schedule_text(LIST).events <= s.events <= \
            ipuxcom.schedule_text(LIST, legacy=True).events


def test_schedule_from_objects_equals_list():
    objs = [ipuxcom.Transfer(0, 5, 10), ipuxcom.Transfer(1, [6, 7], 20),
            ipuxcom.Transfer(9, 10, 64, src_addr=0x60000, dst_addrs=[0x70000])]
    a, b = ipuxcom.schedule(objs), ipuxcom.schedule_text(LIST)
    assert a.transfers == b.transfers and a.events == b.events
    assert ipuxcom.transfer_list(objs) == LIST
    assert sorted(a.programs()) == sorted({t.sender for t in a.transfers}
                                          | {r for t in a.transfers for r in t.receivers})


def test_hazards_are_objects():
    # Two p2p plans into one receiver in one phase: the second stream
    # arrives while the first window is open.
    sim = ipuxcom.Simulator()
    sim.add_p2p(ipuxcom.plan_p2p(0, 5, 10), 0x60000, 0x50000)
    sim.add_p2p(ipuxcom.plan_p2p(1, 5, 10), 0x60000, 0x50040)
    res = sim.run()
    assert not res.ok and res.errors > 0
    h = res.hazards[0]
    assert isinstance(h, ipuxcom.Hazard) and h.severity == "error"
    assert h.tile == 130 and h.kind in {z.kind for z in res.hazards}
    assert sim.count(h.kind) >= 1
    assert h.kind in str(h) and str(h.tile) in str(h)


def test_row_without_br_is_reported():
    sim = ipuxcom.Simulator()
    sim.add_program(0, [0x41800003, 0x40A00005])   # sync 3; delay 6; no br $m10
    res = sim.run()
    assert [h.kind for h in res.hazards] == ["no-br"]


def test_sram_roundtrip_and_delivery():
    sim = ipuxcom.Simulator(log_writes=True)
    data = np.arange(1, 11, dtype=np.uint32) * 0x01010101
    sim.sram_write(0, 0x60000, data)
    sim.add_p2p(ipuxcom.plan_p2p(0, 5, 10), 0x60000, 0x50000)
    res = sim.run()
    assert res.ok and res.delivered == res.declared == 1
    assert np.array_equal(sim.sram_read(130, 0x50000, 10), data)
    w = sim.writes()
    assert len(w) == 10 and set(w["tile"]) == {130} and np.array_equal(w["value"], data)
    kinds = {a.kind for a in sim.actions()}
    assert kinds == {"send", "mux", "pic"}


def test_trace_and_heatmap_svg():
    s = ipuxcom.schedule_text(LIST)
    res, bad, sim = s.verify()
    t = sim.trace("packed")
    root = ET.fromstring(t._repr_svg_())
    assert root.tag.endswith("svg")
    hm = sim.heatmap()
    assert hm.values.shape == (23, 64)
    sent = sum(t.count for t in s.transfers)
    written = sum(t.count * len(t.receivers) for t in s.transfers)
    assert hm.values.sum() == sent + written
    ET.fromstring(hm._repr_svg_())


def test_demo_sum():
    d = ipuxcom.demo_sum(watch=True)
    assert d.passed and d.sum == d.expected == 1472 * 1473 // 2
    assert d.rounds == 11 and d.transfers[0] == 736 and len(d.phases) == 11
    assert all(p.result.errors == 0 for p in d.phases)


@pytest.mark.parametrize("packed", [True, False])
def test_demo_matmul(packed):
    m = ipuxcom.demo_matmul(packed=packed, traces=True)
    assert m.passed and m.matches_notes
    assert np.array_equal(m.c, m.a @ m.b) and np.array_equal(m.c, m.expected)
    assert m.events == (m.packed_events if packed else m.stagger_events)
    assert m.packed_events < m.stagger_events
    assert m.phases and m.phases[-1].trace is not None
