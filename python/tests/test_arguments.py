# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Arguments as numpy users expect them (issue 33): integers cast as numpy's
same_kind rule with range checks, shapes kept, numpy's broadcasting, every
error an ipuxcom.Error that is also Python's ValueError/TypeError/OSError,
naming the Python argument and element. Each repro of the issue is an
assertion here."""
import errno
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import ipuxcom


def _raises(cls, call):
    """The Error @call raises, checked to be both ipuxcom's and Python's @cls."""
    with pytest.raises(ipuxcom.Error) as e:
        call()
    assert isinstance(e.value, cls), f"{type(e.value).__mro__} is not a {cls}"
    return e.value


# ---------------------------------------------------------------- plan_p2p_batch


def test_batch_floats_refused_naming_the_argument():
    # issue: plan_p2p_batch([0.9], [5.5], [70.7]) planned (0, 5, 70)
    e = _raises(TypeError, lambda: ipuxcom.plan_p2p_batch([0.9], [5.5], [70.7]))
    assert isinstance(e, ipuxcom.InvalidTypeError)
    assert e.field == "senders[0]" and "0.9" in e.message
    e = _raises(TypeError, lambda: ipuxcom.plan_p2p_batch([0], [5.5], [70]))
    assert e.field == "receivers[0]" and "5.5" in e.message
    e = _raises(TypeError, lambda: ipuxcom.plan_p2p_batch([0, 1], [5, 6], [70, 70.7]))
    assert e.field == "counts[1]" and "70.7" in e.message      # the first non-integer
    # integral floats too, as numpy's same_kind casting refuses float -> int
    e = _raises(TypeError, lambda: ipuxcom.plan_p2p_batch([0], [5], np.array([70.0])))
    assert e.field == "counts[0]"


def test_batch_overflow_refused():
    # issue: a count of 2**32 + 70 planned 70
    e = _raises(ValueError, lambda: ipuxcom.plan_p2p_batch([0], [5], [2**32 + 70]))
    assert e.errno == errno.ERANGE and e.field == "counts[0]"
    assert str(2**32 + 70) in e.message
    # beyond int64 (numpy makes an object array of Python ints)
    e = _raises(ValueError, lambda: ipuxcom.plan_p2p_batch([2**70], [5], [1]))
    assert e.field == "senders[0]" and e.errno == errno.ERANGE
    e = _raises(ValueError, lambda: ipuxcom.plan_p2p_batch(
        [0], [5], np.array([2**63], dtype=np.uint64)))
    assert e.field == "counts[0]"


def test_batch_negative_refused():
    # issue: a sender of -1472 came back as "sender 4294965824"
    e = _raises(ValueError, lambda: ipuxcom.plan_p2p_batch([3, -1472], [5, 6], 10))
    assert e.field == "senders[1]" and "-1472" in e.message
    assert "4294965824" not in str(e)


def test_batch_strings_refused():
    # issue: np.array(['1']) was accepted
    e = _raises(TypeError, lambda: ipuxcom.plan_p2p_batch(np.array(["1"]), [5], [70]))
    assert e.field == "senders[0]"
    e = _raises(TypeError, lambda: ipuxcom.plan_p2p_batch([0], [5], [70, "x"]))
    assert e.field == "counts[0]"
    e = _raises(TypeError, lambda: ipuxcom.plan_p2p_batch([0], [None], [70]))
    assert e.field == "receivers[0]"


def test_batch_integer_kinds_taken():
    want = ipuxcom.plan_p2p(3, 1000, 65)
    for dt in (np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64):
        send, recv = ipuxcom.plan_p2p_batch(np.array([3], dt), np.array([1000], np.int64),
                                            np.array([65], dt))
        assert np.array_equal(recv[0], want.recv.words), dt


def test_batch_shape_kept():
    # issue: a (2, 5) input was flattened to (10, 9)
    rng = np.random.default_rng(33)
    s = rng.integers(0, 1472, (2, 5))
    d = (s + rng.integers(1, 1471, (2, 5))) % 1472
    c = rng.integers(1, 4149, (2, 5))
    send, recv = ipuxcom.plan_p2p_batch(s, d, c)
    assert send.shape == recv.shape == (2, 5, 9)
    for i, j in ((0, 0), (1, 3), (1, 4)):
        p = ipuxcom.plan_p2p(int(s[i, j]), int(d[i, j]), int(c[i, j]))
        assert np.array_equal(send[i, j], p.send.words)
        assert np.array_equal(recv[i, j], p.recv.words)
    send, recv = ipuxcom.plan_p2p_batch(0, 5, 70)                # all scalars: one plan
    assert send.shape == (9,) and np.array_equal(recv, ipuxcom.plan_p2p(0, 5, 70).recv.words)


def test_batch_broadcasts_as_numpy():
    # issue: a scalar count broadcast, a scalar sender failed with numpy's raw message
    send, recv = ipuxcom.plan_p2p_batch(0, [5, 6, 7], 10)
    assert send.shape == (3, 9)
    for k, r in enumerate((5, 6, 7)):
        assert np.array_equal(recv[k], ipuxcom.plan_p2p(0, r, 10).recv.words)
    # (2, 1) with (3,) -> (2, 3), as np.broadcast_shapes says
    s, r = np.array([[0], [700]]), np.array([5, 6, 7])
    send, recv = ipuxcom.plan_p2p_batch(s, r, [[8], [9]])
    assert send.shape == (2, 3, 9) == np.broadcast_shapes(s.shape, r.shape) + (9,)
    assert np.array_equal(recv[1, 2], ipuxcom.plan_p2p(700, 7, 9).recv.words)
    # shapes that do not broadcast: refused by name
    e = _raises(ValueError, lambda: ipuxcom.plan_p2p_batch([0, 1, 2], [5, 6], 10))
    assert e.field == "receivers" and "(2,)" in e.message and "(3,)" in e.message
    e = _raises(ValueError, lambda: ipuxcom.plan_p2p_batch([0, 1], [5, 6], [1, 2, 3]))
    assert e.field == "counts"


def test_batch_library_error_names_the_broadcast_element():
    # element [1, 0] of the (2, 3) broadcast: sender 1 to receiver 1 (receivers[0])
    e = _raises(ValueError, lambda: ipuxcom.plan_p2p_batch([[0], [1]], [1, 5, 6], 10))
    assert e.code == "IPUXCOM_PLAN_E_SELF" and e.field == "receivers[0]"
    # a count out of the planner's range: the library's range, the Python name
    e = _raises(ValueError, lambda: ipuxcom.plan_p2p_batch([0, 1], [5, 6], [[1, 2], [3, 4149]]))
    assert e.code == "IPUXCOM_PLAN_E_COUNT" and e.field == "counts[1, 1]"
    assert "1..4148" in e.message
    e = _raises(ValueError, lambda: ipuxcom.plan_p2p_batch(1472, [5, 6], 7))
    assert e.field == "senders"                              # a scalar: no index


# ---------------------------------------------------------------- one plan


def test_p2p_negative_is_a_value_error():
    # issue: plan_p2p(-1, 5, 70) raised OverflowError
    e = _raises(ValueError, lambda: ipuxcom.plan_p2p(-1, 5, 70))
    assert e.field == "sender" and e.errno == errno.ERANGE and "-1" in e.message
    e = _raises(ValueError, lambda: ipuxcom.plan_p2p(0, 5, 2**32 + 70))
    assert e.field == "count"


def test_p2p_float_is_a_type_error():
    # issue: plan_p2p(0, 5, 70.0) raised cffi's TypeError, not ipuxcom.Error
    e = _raises(TypeError, lambda: ipuxcom.plan_p2p(0, 5, 70.0))
    assert e.field == "count" and "70.0" in e.message
    e = _raises(TypeError, lambda: ipuxcom.plan_p2p("0", 5, 70))
    assert e.field == "sender"
    e = _raises(TypeError, lambda: ipuxcom.plan_p2p(0, 5, 70, wide=True, src_addr=0x50000 * 1.0))
    assert e.field == "src_addr"
    # numpy integers are integers
    assert ipuxcom.plan_p2p(np.int64(0), np.uint16(5), np.int32(70)).count == 70


def test_except_value_error_catches_plan_errors():
    with pytest.raises(ValueError):
        ipuxcom.plan_p2p(0, 5, 4149)
    with pytest.raises(TypeError):
        ipuxcom.plan_p2p(0, 5, 1.5)
    with pytest.raises(OSError):
        ipuxcom.Image.open("/nonexistent/x.ipuimg")


def test_multicast_defaults_the_commands_addresses(tool):
    # issue: plan_multicast(0, [3, 9], 8) required the addresses the command defaults
    m = ipuxcom.plan_multicast(0, [3, 9], 8)
    j = json.loads(tool("plan", "multicast", "0", "8", "3", "9", "-j"))
    assert [f"0x{w:08x}" for r in m.rows for w in r.words] == \
        [w for r in j["rows"] for w in r["words"]]
    # one address broadcast to every receiver, as the command's --dst-addr A
    one = ipuxcom.plan_multicast(0, [3, 9], 8, src_addr=0x60000, dst_addrs=0x50040)
    both = ipuxcom.plan_multicast(0, [3, 9], 8, src_addr=0x60000, dst_addrs=[0x50040] * 2)
    assert np.array_equal(np.asarray(one), np.asarray(both))


def test_multicast_errors_name_python_arguments():
    e = _raises(ValueError, lambda: ipuxcom.plan_multicast(0, [3, 9], 8, src_addr=0x60000,
                                                           dst_addrs=[0x50000, 0x50002]))
    assert e.field == "dst_addrs[1]" and e.message.startswith("dst_addrs[1] ")
    assert "dst_addr[" not in e.message
    e = _raises(ValueError, lambda: ipuxcom.plan_multicast(0, [3, 9], 8, dst_addrs=0x50002))
    assert e.field == "dst_addrs"                 # one address for all: no index
    e = _raises(ValueError, lambda: ipuxcom.plan_multicast(0, [], 8))
    assert e.field == "receivers" and e.code == "IPUXCOM_PLAN_E_NRECV"
    assert "nrecv" not in e.message
    # too few addresses: refused before C could read past them
    e = _raises(ValueError, lambda: ipuxcom.plan_multicast(0, [3, 9, 10], 8,
                                                           dst_addrs=[0x50000, 0x50040]))
    assert e.field == "dst_addrs"
    e = _raises(TypeError, lambda: ipuxcom.plan_serialized(0, [1, 2.5], 8))
    assert e.field == "receivers[1]"


def test_config_refuses_floats():
    # issue: Config(np.array([[0x2068, 1.5]])) was accepted
    e = _raises(TypeError, lambda: ipuxcom.Config(np.array([[0x2068, 1.5]])))
    assert e.field == "records[0].value"
    e = _raises(TypeError, lambda: ipuxcom.Config([(0x2068, 0), (0x2070, 1.5)]))
    assert e.field == "records[1].value"
    e = _raises(ValueError, lambda: ipuxcom.Config([(0x2068, -1)]))
    assert e.field == "records[0].value"
    e = _raises(ValueError, lambda: ipuxcom.Config(np.array([0x2068, 0])))
    assert e.field == "records"
    assert ipuxcom.Config(np.array([[0x2068, 5]], dtype=np.int64))[0].value == 5


# ---------------------------------------------------------------- schedules


def test_schedule_text_and_paths_are_distinct(tmp_path):
    # issue: schedule("0 5 10") took one line of text for a path (FileNotFoundError)
    e = _raises(TypeError, lambda: ipuxcom.schedule("0 5 10"))
    assert e.field == "transfers" and "schedule_text" in e.message
    _raises(TypeError, lambda: ipuxcom.schedule(b"p2p 0 5 10\n"))
    # the text, explicitly: its own error (the line the caller wrote)
    e = _raises(ValueError, lambda: ipuxcom.schedule_text("0 5 10"))
    assert e.errno == errno.EBADMSG and e.message.startswith("line 1: ")
    f = tmp_path / "l.txt"
    f.write_text("p2p 0 5 10\n")
    assert ipuxcom.schedule(f).transfers == ipuxcom.schedule_text("p2p 0 5 10\n").transfers
    e = _raises(OSError, lambda: ipuxcom.schedule(pathlib.Path("/nonexistent/l.txt")))
    assert e.errno == errno.ENOENT and e.field == "transfers"


SCHED_ERRORS = [
    # transfers, class, field, code
    ([ipuxcom.Transfer(0, 5, 5000)], ValueError, "transfers[0].count", "IPUXCOM_PLAN_E_COUNT"),
    ([ipuxcom.Transfer(0, [5, 5], 10)], ValueError, "transfers[0].receivers[1]",
     "IPUXCOM_PLAN_E_DUP"),
    ([ipuxcom.Transfer(1, 2, 3), ipuxcom.Transfer(0, 0, 50)], ValueError,
     "transfers[1].receivers[0]", "IPUXCOM_PLAN_E_SELF"),
    ([ipuxcom.Transfer(0, [], 10)], ValueError, "transfers[0].receivers",
     "IPUXCOM_PLAN_E_NRECV"),
    ([ipuxcom.Transfer(0, 1472, 10)], ValueError, "transfers[0].receivers[0]",
     "IPUXCOM_PLAN_E_TILE"),
    ([ipuxcom.Transfer(0, 5, 10, src_addr=0x60002)], ValueError, "transfers[0].src_addr",
     "IPUXCOM_PLAN_E_ALIGN"),
    ([ipuxcom.Transfer(0, [5, 6], 10, dst_addrs=[0x50000, 0x50002])], ValueError,
     "transfers[0].dst_addrs[1]", "IPUXCOM_PLAN_E_ALIGN"),
    ([ipuxcom.Transfer(0, [5, 6], 10, dst_addrs=0x50002)], ValueError,
     "transfers[0].dst_addrs", "IPUXCOM_PLAN_E_ALIGN"),
    ([ipuxcom.Transfer(0, [5, 6], 10, dst_addrs=[1, 2, 3])], ValueError,
     "transfers[0].dst_addrs", None),
    ([ipuxcom.Transfer(0, 5, 10.0)], TypeError, "transfers[0].count", None),
    ([ipuxcom.Transfer(0, 5, 10, src_addr=-4)], ValueError, "transfers[0].src_addr", None),
    ([ipuxcom.Transfer(0, 5, 10), (1, 6, 10)], TypeError, "transfers[1]", None),
]


@pytest.mark.parametrize("i", range(len(SCHED_ERRORS)))
def test_schedule_errors_name_python_fields(i):
    # issue: errors of schedule([Transfer...]) named a line of a list the user never
    # wrote and fields by their C names (xfers[0].src_addr, nrecv, dst_addr[1])
    transfers, cls, field, code = SCHED_ERRORS[i]
    e = _raises(cls, lambda: ipuxcom.schedule(transfers))
    assert e.field == field and e.code == code
    for c_name in ("line", "xfers", "nrecv", "dst_addr[", "dst_addr "):
        assert c_name not in e.message, e.message
    assert e.message.startswith(field)


def test_schedule_text_errors_say_line_and_transfer():
    e = _raises(ValueError, lambda: ipuxcom.schedule_text("p2p 0 5 10\np2p 1 6 10 src=0x60002\n"))
    assert e.field == "transfers[1].src_addr" and e.message.startswith("line 2: transfers[1]")


# ---------------------------------------------------------------- the device


def test_device_load_takes_a_bootloader_path(tmp_path):
    # issue: Device.load(img, "boot.bin") raised "open() takes from 0 to 1 positional
    # arguments": device.py's open() shadowed Python's. /dev/null is no ipuxcom device:
    # the load must get past reading the file and fail at the device.
    img = ipuxcom.Image.from_bytes(ipuxcom.pack([bytes(16)] * 2))
    boot = tmp_path / "boot.bin"
    boot.write_bytes(b"\0" * 64)
    with ipuxcom.open("/dev/null") as d:
        e = _raises(OSError, lambda: d.load(img, "/nonexistent/boot.bin"))
        assert e.errno == errno.ENOENT and e.field == "bootloader"
        for path in (str(boot), boot):
            e = _raises(OSError, lambda: d.load(img, path))
            assert e.function == "ipuxcom_dev_query" and e.errno == errno.ENOTTY
        e = _raises(TypeError, lambda: d.load(img, 12))
        assert e.field == "bootloader"
    e = _raises(OSError, lambda: d.load(img, boot))
    assert e.errno == errno.EBADF            # closed: an Error, not cffi's TypeError


def test_events_without_module_raise_cleanly():
    # issue: `with ipuxcom.events()` without the module printed an ignored
    # AttributeError from Monitor.__del__ after the right error
    if os.path.exists("/sys/module/ipuxcom"):
        pytest.skip("the ipuxcom module is loaded here")
    code = ("import ipuxcom, gc\n"
            "try:\n"
            "    with ipuxcom.events() as ev:\n"
            "        pass\n"
            "except OSError as e:\n"
            "    assert isinstance(e, ipuxcom.OperationError), type(e)\n"
            "    print('raised', e.errno)\n"
            "gc.collect()\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=60, env=dict(os.environ))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"raised {errno.ENOENT}"
    assert "ignored" not in r.stderr and "AttributeError" not in r.stderr, r.stderr


def test_monitor_del_after_failed_init():
    m = ipuxcom.Monitor.__new__(ipuxcom.Monitor)     # as after __init__ raised
    m.__del__()
    m.close()
    d = ipuxcom.Device.__new__(ipuxcom.Device)
    d.__del__()
