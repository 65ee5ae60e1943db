# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Errors raise ipuxcom.Error with errno, the library's message, the bad field,
as Python's ValueError or OSError by kind."""
import errno

import pytest

import ipuxcom
from ipuxcom._core import lib

CASES = [
    # call, errno, code, field, words the message holds
    (lambda: ipuxcom.plan_p2p(0, 5, 4149), errno.ERANGE, "IPUXCOM_PLAN_E_COUNT", "count",
     "4149"),
    (lambda: ipuxcom.plan_p2p(0, 1472, 1), errno.ERANGE, "IPUXCOM_PLAN_E_TILE", "receiver",
     "1472"),
    (lambda: ipuxcom.plan_p2p(7, 7, 1), errno.EINVAL, "IPUXCOM_PLAN_E_SELF", "receiver", "7"),
    (lambda: ipuxcom.plan_multicast(0, [3, 3], 4, src_addr=0x60000,
                                    dst_addrs=[0x50000, 0x50040]),
     errno.EINVAL, "IPUXCOM_PLAN_E_DUP", "receivers[1]", "3"),
    (lambda: ipuxcom.plan_multicast(0, [3], 4, src_addr=0x60002, dst_addrs=[0x50000]),
     errno.EINVAL, "IPUXCOM_PLAN_E_ALIGN", "src_addr", "0x60002"),
    (lambda: ipuxcom.tile(5000), errno.ERANGE, "IPUXCOM_PLAN_E_TILE", None, "5000"),
    (lambda: ipuxcom.schedule_text("p2p 0 0 5\n"), errno.EBADMSG, "IPUXCOM_PLAN_E_FORMAT",
     None, "line 1"),
    # Transfer objects: no line of a list the caller never wrote
    (lambda: ipuxcom.schedule([ipuxcom.Transfer(0, 5, 5000)]), errno.ERANGE,
     "IPUXCOM_PLAN_E_COUNT", "transfers[0].count", "5000"),
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_error_maps(i):
    call, err, code, fld, word = CASES[i]
    with pytest.raises(ipuxcom.Error) as e:
        call()
    x = e.value
    # a value the library refuses: a ValueError (Python's class for it), not an OSError
    assert isinstance(x, ValueError) and isinstance(x, ipuxcom.InvalidValueError)
    assert not isinstance(x, OSError)
    assert x.errno == err and x.code == code
    if fld is not None:
        assert x.field == fld
    assert word in x.message
    # the one explainer explains the returned value
    assert x.explanation == ipuxcom.strerror(-err) or x.explanation == \
        ipuxcom.strerror(lib.IPUXCOM_ERRC_BASE * -1 - getattr(lib, code))
    assert x.message in str(x)


def test_strerror_explains_codes():
    assert ipuxcom.strerror(-(lib.IPUXCOM_ERRC_BASE + lib.IPUXCOM_PLAN_E_COUNT)) == \
        "word count not in 1..4148"
    assert ipuxcom.strerror(-errno.ENOENT) == ipuxcom.strerror(errno.ENOENT)


def test_file_errors():
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.Image.open("/nonexistent/x.ipuimg")
    assert e.value.errno == errno.ENOENT and "/nonexistent/x.ipuimg" in e.value.message
    assert isinstance(e.value, OSError)
    assert isinstance(e.value, ipuxcom.OperationError)
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.Timing.load("/nonexistent/t.tbl")
    assert e.value.errno == errno.ENOENT and e.value.code == "IPUXCOM_PLAN_E_IO"


def test_device_error_without_module():
    with pytest.raises(ipuxcom.Error) as e:
        ipuxcom.open("/nonexistent/ipuxcom")
    assert e.value.errno == errno.ENOENT and "/nonexistent/ipuxcom" in e.value.message
