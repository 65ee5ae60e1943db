# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""IPUCFG1 from Python: exact bytes, round trip, `ipuxcom cfg dump|inspect`,
the selftest's register names and block summary, every rejection."""
import errno
import json

import numpy as np
import pytest

import ipuxcom
from ipuxcom import cfg


def sample():
    """selftests/host/ipucfg_test.c's sample: the notes' autoloader sequence and more."""
    r = [(0x2068, 0)]
    r += [(0x2070, i * 0x01010101) for i in range(256)]
    r += [(0x206C, 0x02000400), (0x2068, 0x0010013F), (0x206C, 0x0209C001),
          (0x2068, 0x000B7F3F)]
    r += [(0x5404 + i * 0x400, 0x07FFFFFA) for i in range(8)]
    r += [(0x1B804 + i * 0x400, 0x07FFFFFA) for i in range(8)]
    r += [(0x2000, 0), (0x302C, 1), (0x3044, 5), (0x30000 + 17 * 0x40 + 7 * 4, 0x52000),
          (0x30000 + 1471 * 0x40 + 3 * 4, 0x44F0F3F1), (0x4000, 7), (0x4FFC, 8),
          (0x7FFFC, 9)]
    return r


def test_layout_and_round_trip(tmp_path):
    c = ipuxcom.Config(sample())
    data = c.to_bytes()
    assert len(data) == 12 + 8 * len(c) and data[:8] == b"IPUCFG1\0"
    assert int.from_bytes(data[8:12], "little") == len(c)
    assert data[12:28] == bytes.fromhex("68200000" "00000000" "70200000" "00000000")
    back = ipuxcom.Config.parse(data)
    assert back == c and back.to_bytes() == data
    f = tmp_path / "s.ipucfg"
    c.save(f)
    assert f.read_bytes() == data and ipuxcom.Config.load(f) == c
    a = c.as_array()
    assert a.dtype == np.uint32 and a.shape == (len(c), 2)
    assert ipuxcom.Config(a) == c and ipuxcom.Config(list(c)) == c
    assert ipuxcom.Config.parse(np.frombuffer(data, np.uint8)) == c
    assert c[1] == ipuxcom.CfgRecord(0x2070, 0) and c[1].register == "AUTOLDDATAR"


def test_dump_and_inspect_equal_command(tool, tmp_path):
    c = ipuxcom.Config(sample())
    f = tmp_path / "s.ipucfg"
    c.save(f)
    dump = json.loads(tool("cfg", "dump", str(f), "-j"))
    assert [(int(d["offset"], 16), int(d["value"], 16), d["register"]) for d in dump] == \
        [(r.offset, r.value, r.register) for r in c]
    ins = json.loads(tool("cfg", "inspect", str(f), "-j"))
    assert ins["records"] == len(c)
    assert [(b["name"], b["named"], int(b["first"], 16), int(b["last"], 16), b["writes"],
             b["registers"], b["units"]) for b in ins["blocks"]] == \
        [(b.name, b.named, b.first, b.last, b.writes, b.registers, b.units)
         for b in c.blocks()]
    assert ins["registers"] == sum(b.registers for b in c.blocks())


def test_blocks_known():
    """The selftest's block_summary expectations."""
    b = ipuxcom.Config(sample()).blocks()
    assert [x.name for x in b] == ["PCI_COMPLEX", "AUTOLD", "HSP", "EXCHWINDOWBASER",
                                   "page 0x04000", "XB.DCXCR primary",
                                   "XB.DCXCR secondary", "TDI", "page 0x7f000"]
    assert (b[1].writes, b[1].registers, b[1].first, b[1].last, b[1].named) == \
        (261, 3, 0x2068, 0x2070, True)
    assert not b[4].named and b[4].writes == 2 and b[4].last == 0x4FFC
    assert b[5].units == 8 and b[6].units == 8 and b[6].last == 0x1D404
    assert b[7].units == 2      # tiles 17 and 1471


@pytest.mark.parametrize("off,name", [
    (0x2000, "PCI_COMPLEX.CCSR"), (0x2068, "AUTOLDCSR"), (0x206C, "AUTOLDTRGTR"),
    (0x2070, "AUTOLDDATAR"), (0x302C, "HSP.GS1"), (0x3030, "HSP.GS2"),
    (0x3044, "EXCHWINDOWBASER"), (0x3054, "TILEUPDR"), (0x5404, "XB.DCXCR[0]"),
    (0x7004, "XB.DCXCR[7]"), (0x1B804, "XB.DCXCR[8]"), (0x1D404, "XB.DCXCR[15]"),
    (0x30000, "TDI[0].CTXT_STS"), (0x30000 + 17 * 0x40 + 28, "TDI[17].DBG_DATA"),
    (0x30000 + 1471 * 0x40 + 48, "TDI[1471].TDI_CTL"), (0x30000 + 3 * 0x40 + 60, "TDI[3].reg15"),
    (0x5408, ""), (0x47000, ""), (0x80000, ""), (0x2069, ""),
])
def test_reg_name(off, name):
    assert ipuxcom.reg_name(off) == name


def _file(records, count=None):
    n = len(records) if count is None else count
    return (b"IPUCFG1\0" + n.to_bytes(4, "little")
            + b"".join(o.to_bytes(4, "little") + v.to_bytes(4, "little") for o, v in records))


@pytest.mark.parametrize("data,err,field,text", [
    (_file([(0x2068, 0), (0x206A, 1)]), errno.EBADMSG, "records[1].offset", "4-byte aligned"),
    (_file([(0x80000, 1)]), errno.EBADMSG, "records[0].offset", "outside the 512 KiB"),
    (b"IPUCFG2\0" + bytes(12), errno.EBADMSG, "magic", "bad magic"),
    (b"IPUCFG1\0", errno.EBADMSG, "length", "truncated"),
    (_file([(0x2068, 0)], count=2), errno.EBADMSG, "length", "truncated"),
    (_file([(0x2068, 0)]) + b"x", errno.EBADMSG, "length", "trailing data"),
    (_file([]), errno.EBADMSG, "count", "no records"),
    (_file([], count=cfg.MAX_RECORDS + 1), errno.EFBIG, "count", "more than"),
])
def test_parse_rejects(data, err, field, text):
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.Config.parse(data)
    assert e.value.errno == err and e.value.field == field and text in e.value.message
    assert e.value.function == "ipuxcom_cfg_parse"


def test_write_rejects():
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.Config([(0x2068, 0), (0x2068, 1), (0x3, 1)]).to_bytes()
    assert e.value.field == "records[2].offset" and "0x3" in e.value.message
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.Config([]).to_bytes()
    assert e.value.field == "count"
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.Config([(0x3, 1)]).blocks()
    assert e.value.field == "records[0].offset"
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.Config([(0x2068, 1 << 32)])
    assert e.value.field == "records[0].value"
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.Config(np.zeros((2, 3), np.uint32))
    assert e.value.field == "records"


def test_load_missing(tmp_path):
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.Config.load(tmp_path / "none.ipucfg")
    assert e.value.errno == errno.ENOENT and "none.ipucfg" in e.value.message
