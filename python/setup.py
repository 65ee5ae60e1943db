# SPDX-License-Identifier: LGPL-2.1-only OR BSD-2-Clause
"""setuptools' half of python/pyproject.toml: the CFFI extension (built by
ipuxcom_build.py:pip_builder from the source tree's libuser/) and the
version, the library's (IPUXCOM_LIB_VERSION in libuser/include/ipuxcom.h)."""
import os
import sys

from setuptools import setup

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ipuxcom_build import lib_version  # noqa: E402  (beside this file)

# (packages here, not in pyproject.toml: setuptools 66 calls [tool.setuptools] beta)
setup(version=lib_version(), packages=["ipuxcom"],
      package_data={"ipuxcom": ["py.typed", "*.pyi"]},
      cffi_modules=["ipuxcom_build.py:pip_builder"])
