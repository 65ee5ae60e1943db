# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
"""The device from Python on the simulated C600 (the test VM: make check-vm).

Skipped where there is no /dev/ipuxcom (the build machine). In the VM:
devices() lists the simulator, a full load with a progress callback whose
tiles read back through TDI, TDI write/read of SRAM into numpy, a host
exchange write compared through TDI, events as an iterator, reset.
"""
import errno
import os
import threading

import numpy as np
import pytest

import ipuxcom

DEV = os.environ.get("IPUXCOM_DEV_PATH", "/dev/ipuxcom")
pytestmark = pytest.mark.skipif(not os.path.exists(DEV),
                                reason=f"{DEV} absent (ipuxcom.ko not loaded)")

IMAGE_BYTES = 0x4140          # selftests/lib/ixt_load.h's small image
BOOT = bytes(1024)            # a raw 1 KiB tile bootloader


def _sim_id() -> int:
    sims = [d.dev_id for d in ipuxcom.devices() if d.backend == "sim"]
    if not sims:
        pytest.skip("no simulated device")
    return int(os.environ.get("IPUXCOM_DEVICE", min(sims)))


def _images():
    imgs = []
    for t in range(1472):
        a = np.full(IMAGE_BYTES, 0x5A, dtype=np.uint8)
        a[:4] = np.frombuffer(np.uint32(t).tobytes(), np.uint8)
        imgs.append(a)
    return imgs


@pytest.fixture
def dev():
    with ipuxcom.open(DEV) as d:
        d.attach(_sim_id())
        d.reset()
        yield d
        d.reset()


def test_devices_lists_the_simulator():
    devs = ipuxcom.devices()
    assert any(d.backend == "sim" and d.tile_count == 1472 for d in devs)


def test_attach_query_info(dev):
    q = dev.query()
    assert q.backend == "sim" and q.tile_count == 1472
    assert dev.info()["uapi_version"] >= 1


def test_load_with_progress_reads_back(dev):
    imgs = _images()
    image = ipuxcom.Image.from_bytes(ipuxcom.pack(imgs, template=0))
    seen = []
    r = dev.load(image, BOOT, progress=seen.append)
    assert r["syscalls"] > 0
    assert [p.batch for p in seen] == list(range(1, ipuxcom.device.LOAD_BATCHES + 1))
    assert seen[-1].bytes == seen[-1].total > 0
    base = ipuxcom.image.PAYLOAD_BASE
    for t in (0, 1, 700, 1471):
        got = dev.tdi_read(t, base, 8)
        assert np.array_equal(got, imgs[t][:32].view(np.uint32)), t


# The real capture's last three records (selftests/lib/c600_record.h):
# CCSR 0x402, then GS2 = 1 and GS1 = 1.
CAPTURE_TAIL = [(0x2000, 0x402), (0x3030, 1), (0x302C, 1)]


def test_load_with_cfg_in_each_hsp_mode(dev, tmp_path):
    image = ipuxcom.Image.from_bytes(ipuxcom.pack(_images(), template=0))
    cfg = ipuxcom.Config(CAPTURE_TAIL)
    # "clear": both marks skipped and cleared, so batch 0 starts (GS2 is
    # the program's to post once it runs: not checked after the load)
    dev.load(image, BOOT, cfg=cfg)
    assert dev.reg_read(0x2000) == 0x402                 # the other record replayed
    dev.reset()
    path = tmp_path / "tail.ipucfg"
    path.write_bytes(cfg.to_bytes())
    dev.load(image, BOOT, cfg=path, cfg_hsp="keep-gs2")  # from a file
    dev.reset()
    with pytest.raises(ipuxcom.Error) as e:              # GS1 pending: batch 0 refuses it
        dev.load(image, BOOT, cfg=cfg.to_bytes(), cfg_hsp="replay")
    assert e.value.errno == errno.EBUSY and "already pending" in str(e.value)
    assert dev.reg_read(0x302C) & 0xFFFF == 1
    dev.reset()
    with pytest.raises(ipuxcom.Error) as e:
        dev.load(image, BOOT, cfg=cfg, cfg_hsp="keep")
    assert e.value.field == "cfg_hsp" and e.value.errno == errno.EINVAL


def test_tdi_needs_a_running_tile(dev):
    with pytest.raises(ipuxcom.Error) as e:
        dev.tdi_write(5, 0x60000, [1])
    assert e.value.errno == errno.ENOEXEC and "cannot execute" in e.value.message


def test_tdi_write_read_roundtrip(dev):
    dev.load(ipuxcom.pack(_images(), template=0), BOOT)   # TDI runs on a running tile
    words = (np.arange(64, dtype=np.uint32) * 0x9E3779B9) ^ 0x5A5A5A5A
    dev.tdi_write(5, 0x60000, words)
    assert np.array_equal(dev.tdi_read(5, 0x60000, 64), words)
    assert dev.tdi_read(6, 0x60000, 64).dtype == np.uint32


def test_host_exchange_bytes_compared(dev):
    dev.load(ipuxcom.pack(_images(), template=0), BOOT)
    data = np.frombuffer(os.urandom(256), dtype=np.uint8)
    dev.exch_write(5, 0x60000, data)
    phys = ipuxcom.physical_id(5)
    assert dev.tdi_read(phys, 0x60000, 64).view(np.uint8).tobytes() == data.tobytes()


def test_events_iterate_a_reset(dev):
    with ipuxcom.events() as mon:
        dev.reset()
        got = []
        while True:
            e = mon.next_event(timeout=5)
            if e is None:
                break
            got.append(e)
            if e.type == "reset":
                break
    assert any(e.type == "reset" and e.error == 0 for e in got), got


def test_errors_carry_the_library_message(dev):
    with pytest.raises(ipuxcom.Error) as e:
        dev.tdi_read(1472, 0x60000, 1)
    assert e.value.errno and e.value.message


def test_driver_signals_blocked_in_the_opening_thread():
    import signal
    with ipuxcom.open(DEV):
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    for s in range(44, 50):
        assert s in {int(x) for x in blocked}

    # a new thread started afterwards inherits the mask
    out = {}
    th = threading.Thread(target=lambda: out.setdefault(
        "m", signal.pthread_sigmask(signal.SIG_BLOCK, [])))
    th.start()
    th.join()
    assert 44 in {int(x) for x in out["m"]}


ORACLE = ("ipuhsp 1\npage 0 size 4096\npage 1 size 4096\nattach 1 0\n"
          "command page 1 offset 0x0\ncall run id 0 phases 2\ncall read id 1 phases 4\n"
          "call write id 2 phases 4\ninput write page 0 offset 0x40 size 64\n"
          "output read page 0 offset 0x40 size 64\nend\n")


def test_host_exchange_round_trip(dev):
    # selftests/device/hostx_test.c's oracle: write, run, read give the bytes back
    dev.load(ipuxcom.pack(_images(), template=0), BOOT)
    m = ipuxcom.Manifest.parse(ORACLE)
    dev.hostx_setup(m)
    for _ in range(3):
        data = np.frombuffer(os.urandom(64), dtype=np.uint8)
        assert dev.hostx_call(m, "write", [data]) == []
        dev.hostx_call(m, "run")
        (out,) = dev.hostx_call(m, "read")
        assert out.dtype == np.uint8 and np.array_equal(out, data)
    # the device really moved it: tile 1 (physical 2) holds the bytes
    assert np.array_equal(dev.tdi_read(2, 0x52000, 16).view(np.uint8), data)
    with pytest.raises(ipuxcom.Error) as e:
        dev.hostx_call(m, "write", [data[:60]])
    assert "60 bytes" in e.value.message
