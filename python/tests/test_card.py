# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""Device.load() on the card: the session the record runs before every load.

Runs in the card lane's VM (make check-vm-c600: the QEMU C600 held through
the ipu_driver stand-in, served by ipuxcom_hw; python/vm/python_card_test),
skipped anywhere else. The config is the real C600 capture the seed
describes ($IPUXCOM_CARD_CFG, put into the image by the Makefile after
checking its SHA-256). What reached the card is read where the card sees
it: the config-BAR writes the device model received (the stand-in's
debugfs "bar_writes") and ipu_driver's calls (its "log").

  - by default Device.load() initialises (ipu_driver's steps from
    driver-idle) and replays the capture, its records in order, before the
    autoloader's first word;
  - init=False and cfg=False skip exactly their part;
  - without a config and without cfg=False it refuses before anything
    reaches the card.

The driver's signals are switched off in the stand-in for these tests
(its "signals" parameter): their subject is the session; a Python process
under the driver's signals is the signal tests' subject.
"""
import errno
import os
import time

import numpy as np
import pytest

import ipuxcom

DEV = os.environ.get("IPUXCOM_DEV_PATH", "/dev/ipuxcom")
CFG = os.environ.get("IPUXCOM_CARD_CFG", "")
STANDIN = "/sys/kernel/debug/ipu_standin/ipu0"
SIGNALS = "/sys/module/ipu_standin/parameters/signals"
pytestmark = pytest.mark.skipif(
    os.environ.get("IPUXCOM_CARD") != "c600" or not os.path.exists(DEV),
    reason="not on the QEMU C600 (IPUXCOM_CARD=c600, make check-vm-c600)")

IMAGE_BYTES = 0x4140          # selftests/lib/ixt_load.h's small image
BOOT = bytes(1024)            # a raw 1 KiB tile bootloader
GS1, GS2 = 0x302C, 0x3030     # HSP general-sync controls [S]
AUTOLDCSR = 0x2068            # the autoloader's first write is AUTOLDCSR = 0 [S]
INIT_STEPS = ["STOP_MONITORING", "MAILBOX_WRITE_READ", "START_MONITORING",
              "ACCUMULATE_ERRORS", "RESET_DEVICE", "SET_SECONDARY_IPU_ID"]


def _standin_clear(name: str) -> None:
    with open(f"{STANDIN}/{name}", "w") as f:
        f.write("0\n")


def _device_writes():
    """(offset, value) of every config-BAR write the device model saw since the clear."""
    with open(f"{STANDIN}/bar_writes") as f:
        head, *lines = f.read().splitlines()
    total, kept = (int(x) for x in head.split()[1::2])
    assert total == kept, "the device's write log wrapped"
    return [tuple(int(x, 16) for x in ln.split()) for ln in lines if ln.strip()]


def _driver_calls():
    """ipu_driver's calls since the clear, by name (the stand-in's log)."""
    with open(f"{STANDIN}/log") as f:
        return [ln.split()[0] for ln in f.read().splitlines() if ln and ln[0] != "#"]


@pytest.fixture(scope="module")
def capture():
    if not CFG or not os.path.exists(CFG):
        pytest.fail(f"IPUXCOM_CARD_CFG {CFG!r}: the card lane's config capture is missing")
    cfg = ipuxcom.Config.load(CFG)
    assert len(cfg) == 2003            # the seed's "ordered 2,003 MMIO writes"
    return cfg


@pytest.fixture(scope="module")
def image():
    imgs = []
    for t in range(1472):
        a = np.full(IMAGE_BYTES, 0x5A, dtype=np.uint8)
        a[:4] = np.frombuffer(np.uint32(t).tobytes(), np.uint8)
        imgs.append(a)
    return ipuxcom.Image.from_bytes(ipuxcom.pack(imgs, template=0))


def _hw_ids():
    return [d.dev_id for d in ipuxcom.devices() if d.backend == "hw"]


@pytest.fixture(scope="module")
def hw_id():
    ids = _hw_ids()
    if not ids:
        # an earlier test binary unloaded the stand-in (ipudrv_test does):
        # back as the VM's init loads it
        assert os.system("modprobe ipu_standin && modprobe ipuxcom_hw") == 0
        for _ in range(100):
            ids = _hw_ids()
            if ids and os.path.exists("/dev/ipu0"):
                break
            time.sleep(0.1)
    assert ids, "no ipuxcom device of the hw backend"
    return min(ids)


@pytest.fixture
def card(hw_id):
    with open(SIGNALS) as f:
        was = f.read().strip()
    with open(SIGNALS, "w") as f:
        f.write("0\n")
    try:
        with ipuxcom.open(DEV) as d:
            d.attach(hw_id)
            _standin_clear("bar_writes")
            _standin_clear("log")
            yield d
    finally:
        with open(SIGNALS, "w") as f:
            f.write(was + "\n")


def _capture_then_autoloader(writes, cfg):
    """Where the capture's records (but its GS1/GS2 ones) arrived, in order, before
    the autoloader's first word: the index of that word; asserts on the way."""
    want = [(r.offset, r.value) for r in cfg if r.offset not in (GS1, GS2)]
    assert len(want) == 2003 - 8       # records 28, 29, 50, 51, 523-526 [HW-CFG-CAPTURE]
    starts = [i for i, w in enumerate(writes) if w == want[0]
              and writes[i:i + len(want)] == want]
    assert starts, "the capture's records do not arrive in order"
    first = starts[0]
    auto = writes.index((AUTOLDCSR, 0), first)
    assert auto > first + len(want) - 1
    # the peer's order: then GS1 = 0 and GS2 = 0 (MARK bits 0-15 cleared)
    after = writes[first + len(want):auto]
    assert [o for o, _ in after] == [GS1, GS2] and all(v & 0xFFFF == 0 for _, v in after)
    return auto


def test_load_initialises_and_replays_the_capture_by_default(card, capture, image):
    r = card.load(image, BOOT, cfg=CFG)
    # the load's 30 (docs: ipuxcom_load()), ipu_driver's six init steps, RESET, CFG_APPLY
    assert r["syscalls"] >= 30 + 6 + 1 + 1
    assert card.query().state == "running"
    _capture_then_autoloader(_device_writes(), capture)
    calls = _driver_calls()
    assert [c for c in calls if c in INIT_STEPS] == INIT_STEPS
    assert calls.index("SET_SECONDARY_IPU_ID") < calls.index("BUFFER_ATTACH")
    # the seed's order too: the GS2 records replayed, GS1's cleared
    card.load(image, BOOT, cfg=capture, cfg_hsp="keep-gs2")
    assert card.query().state == "running"


def test_opt_outs_skip_exactly_their_part(card, capture, image):
    # init=False: the capture and the load, no ipu_driver step
    card.init()
    _standin_clear("bar_writes")
    _standin_clear("log")
    card.load(image, BOOT, cfg=capture, init=False)
    _capture_then_autoloader(_device_writes(), capture)
    assert not [c for c in _driver_calls() if c in INIT_STEPS]
    # cfg=False: the initialisation and the load, none of the capture's writes
    _standin_clear("bar_writes")
    _standin_clear("log")
    card.load(image, BOOT, cfg=False)
    assert [c for c in _driver_calls() if c in INIT_STEPS] == INIT_STEPS
    writes = _device_writes()
    seen = set(writes)
    only_capture = {(r.offset, r.value) for r in capture if r.offset >= 0x30000}
    assert not seen & only_capture
    assert (AUTOLDCSR, 0) in writes
    with pytest.raises(ipuxcom.Error) as e:
        card.load(image, BOOT, cfg=True)
    assert e.value.field == "cfg" and e.value.errno == errno.EINVAL


def test_card_load_without_a_config_is_refused_before_anything(card, image):
    with pytest.raises(ipuxcom.Error) as e:
        card.load(image, BOOT)
    assert e.value.errno == errno.EINVAL and e.value.field == "cfg"
    assert "config capture" in e.value.message and "cfg=False" in e.value.message
    assert _device_writes() == []
    assert _driver_calls() == []
