# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Plans from Python equal the C library's words, as the command prints them."""
import errno
import json

import numpy as np
import pytest

import ipuxcom

# (sender, receiver, count), logical: both receive shapes' boundaries
# (51, 52, 53), one send vs send + sendoff (64, 65), the extremes.
P2P_CASES = [(0, 5, 1), (0, 5, 51), (0, 5, 52), (0, 5, 53), (3, 1000, 64), (3, 1000, 65),
             (1471, 0, 4148), (700, 701, 70), (64, 1, 2)]


def _rowcheck(row: ipuxcom.Row, j: dict) -> None:
    assert [f"0x{w:08x}" for w in row.words] == j["words"]
    assert row.tile == j["physical"] and row.logical == j["logical"]
    assert row.role == j["role"] and row.nwords == j["nwords"]
    assert row.patch == j["patch"] and row.addr == j["addr_word"]
    assert row.event == j["event"]
    assert row.asm() == j["asm"]
    assert row.comments() == j["comment"]


@pytest.mark.parametrize("s,d,n", P2P_CASES)
def test_p2p_equals_command(tool, s, d, n):
    j = json.loads(tool("plan", "p2p", str(s), str(d), str(n), "-j"))
    p = ipuxcom.plan_p2p(s, d, n)
    assert p.time_to_mux == j["time_to_mux"] and p.direction == j["direction"]
    assert p.sync_boundary == j["sync_boundary"] and p.timing_model == j["timing_model"]
    _rowcheck(p.send, j["rows"][0])
    _rowcheck(p.recv, j["rows"][1])
    assert p.send.words.dtype == np.uint32 and p.send.words.shape == (9,)


def test_p2p_physical_numbering(tool):
    j = json.loads(tool("plan", "p2p", "--physical", "0", "130", "10", "-j"))
    p = ipuxcom.plan_p2p(0, 130, 10, physical=True)
    _rowcheck(p.recv, j["rows"][1])
    assert p.recv.tile == 130 and ipuxcom.plan_p2p(0, 5, 10).recv.tile == 130


def test_p2p_wide_equals_command(tool):
    for args in (["0", "5", "128"], ["0", "4", "128"], ["0", "5", "127"]):
        j = json.loads(tool("plan", "p2p", *args, "--wide", "-j"))
        p = ipuxcom.plan_p2p(*map(int, args), wide=True)
        assert p.wide["route"] == j["route"] and p.wide["why"] == j["why"]
        assert p.wide["items"] == j["items"] and p.wide["sctl"] == j["sctl"]
        _rowcheck(p.send, j["rows"][0])
        _rowcheck(p.recv, j["rows"][1])


def test_p2p_batch_equals_single_plans():
    rng = np.random.default_rng(24)
    s = rng.integers(0, 1472, 500, dtype=np.uint32)
    d = (s + rng.integers(1, 1471, 500, dtype=np.uint32)) % 1472
    c = rng.integers(1, 4149, 500, dtype=np.uint32)
    send, recv = ipuxcom.plan_p2p_batch(s, d, c)
    assert send.shape == (500, 9) and recv.dtype == np.uint32
    for i in range(0, 500, 7):
        p = ipuxcom.plan_p2p(int(s[i]), int(d[i]), int(c[i]))
        assert np.array_equal(send[i], p.send.words) and np.array_equal(recv[i], p.recv.words)


def test_p2p_batch_into_out_arrays():
    s, d = np.array([0, 3, 700], np.uint32), np.array([5, 1000, 701], np.uint32)
    rows = (np.zeros((3, 9), np.uint32), np.zeros((3, 9), np.uint32))
    got = ipuxcom.plan_p2p_batch(s, d, [1, 65, 70], out=rows)
    assert got[0] is rows[0] and got[1] is rows[1]
    assert np.array_equal(rows[1][2], ipuxcom.plan_p2p(700, 701, 70).recv.words)
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.plan_p2p_batch(s, d, 1, out=(rows[0][:2], rows[1]))
    assert e.value.field == "out[0]" and isinstance(e.value, ValueError)


def test_p2p_batch_error_names_the_transfer():
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.plan_p2p_batch([0, 1, 2], [5, 6, 2], 10)
    assert e.value.errno == errno.EINVAL and e.value.code == "IPUXCOM_PLAN_E_SELF"
    # named by the Python argument and its element
    assert e.value.field == "receivers[2]" and e.value.message.startswith("receivers[2]: ")


def test_seed_p2p_words():
    # The notes' recorded p2p receive shape for count 1 on physical row 2
    # (tools' own tests pin the same words): sync 3; delayxpic 112.
    p = ipuxcom.plan_p2p(0, 5, 1)
    assert p.send.words[0] == 0x41800003 and p.send.words[p.send.nwords - 1] == 0x43A00000
    assert p.recv.words[2] == 0x641C0000


def test_multicast_equals_command(tool):
    j = json.loads(tool("plan", "multicast", "0", "8", "3", "9", "--src-addr", "0x60000",
                        "--dst-addr", "0x50000,0x50040", "--offset", "4", "-j"))
    m = ipuxcom.plan_multicast(0, [3, 9], 8, src_addr=0x60000, dst_addrs=[0x50000, 0x50040],
                               schedule_offset=4)
    assert m.info["min_t"] == j["min_time_to_mux"] and m.info["start"] == j["start"]
    assert m.info["send_delay"] == j["send_delay"]
    assert m.info["max_recv_time"] == j["max_recv_time"]
    assert len(m.rows) == len(j["rows"]) == 3
    for r, jr in zip(m.rows, j["rows"]):
        _rowcheck(r, jr)
    assert m.words.shape == (3, 9)


def test_fanout_equals_command(tool):
    j = json.loads(tool("plan", "fanout", "0", "10", "1", "2", "3", "-j"))
    d = ipuxcom.plan_fanout(0, [1, 2, 3], 10)
    assert d.chosen == j["chosen"] == "multicast"
    assert [c["total"] for c in d.candidates] == [c["total"] for c in j["candidates"]]
    assert [c["method"] for c in d.candidates] == ["multicast", "serialized", "relay"]


def test_idle_and_tile_equal_command(tool):
    j = json.loads(tool("plan", "idle", "5", "-j"))
    _rowcheck(ipuxcom.plan_idle(5), j["rows"][0])
    t = json.loads(tool("plan", "tile", "5", "700", "-j"))
    assert [ipuxcom.tile(5)._asdict(), ipuxcom.tile(700)._asdict()] == t
    m = ipuxcom.tile_map()
    assert m[5] == 130 and len(np.unique(m)) == 1472
    assert ipuxcom.logical_id(ipuxcom.physical_id(700)) == 700


def test_decode_and_disasm_equal_command(tool):
    words = [0x40A00005, 0x641C0000, 0x7FE00001, 0x43A00000, 0x12345678]
    j = json.loads(tool("plan", "decode", *[hex(w) for w in words], "-j"))
    texts = ipuxcom.disasm(words)
    assert texts == [x["asm"] for x in j]
    ins = ipuxcom.decode(words)
    assert [i.op for i in ins][:4] == ["delay", "delayxpic", "send", "br"]
    assert ins[4].op == ".word"
    assert ipuxcom.encode("delay", 5)[0] == 0x40A00005
    assert ipuxcom.encode("delayxpic", 112, 0, 0)[0] == 0x641C0000


def test_patch_helpers():
    p = ipuxcom.plan_p2p(0, 5, 10)
    idx = ipuxcom.patch_index(p.recv.words)
    assert idx == p.recv.patch == 2
    patched = ipuxcom.patch_recv(p.recv.words, 0)
    assert patched[idx] & 0x1FFF == 0 and patched is not p.recv.words
    patched = ipuxcom.patch_recv(p.recv.words, 5)
    assert patched[idx] & 0x1FFF == 130
    assert np.array_equal(ipuxcom.patch_recv_restore(patched), p.recv.words)
    assert ipuxcom.patch_send_base(0x60000, 3) == 0x6000C
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.patch_recv(p.send.words, 5)   # not a receive row: never written
    assert e.value.code == "IPUXCOM_PLAN_E_WORD"


def test_timing_roundtrip(tmp_path):
    t = ipuxcom.Timing.default()
    assert t.name == "reconstruction" and t.kind == "reconstruction"
    assert t.time_to_mux(0, 130) == ipuxcom.plan_p2p(0, 5, 1).time_to_mux
    path = tmp_path / "t.tbl"
    t.save(path)
    u = ipuxcom.Timing.load(path)
    assert u.kind == "table"
    for s, d in ((0, 130), (1471, 0), (64, 65)):
        assert u.time_to_mux(s, d) == t.time_to_mux(s, d)
        assert u.direction(s, d) == t.direction(s, d)
    assert np.array_equal(ipuxcom.plan_p2p(3, 1000, 65, timing=u).recv.words,
                          ipuxcom.plan_p2p(3, 1000, 65).recv.words)
    ttm = np.full((1472, 1472), 112, dtype=np.int16)
    v = ipuxcom.Timing.from_table(ttm, name="flat")
    assert v.name == "table:flat" and ipuxcom.plan_p2p(0, 5, 3, timing=v).sync_boundary


def test_relay_and_serialized():
    steps = ipuxcom.plan_relay(0, [1, 2, 3, 4, 5, 6, 7], 16)
    assert len(steps) == 7 and max(s.round for s in steps) == 3
    s = ipuxcom.plan_serialized(0, [1, 2], 10)
    assert [r.role for r in s.rows] == ["send", "recv", "recv"]
