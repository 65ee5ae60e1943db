# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
# The CFFI extension (built by python/ipuxcom_build.py): its objects are
# typed by the C declarations, not by Python's type system.
from typing import Any

ffi: Any
lib: Any
