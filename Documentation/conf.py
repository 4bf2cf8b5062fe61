# SPDX-License-Identifier: GPL-2.0
"""Sphinx configuration of perfkmod's documentation.

Built by make lint (scripts/lint.sh) with the kernel's kernel-doc
extension, from the kernel source scripts/kernel.sh extracts
(PERFKMOD_KSRC).
"""

import os
import sys

ksrc = os.environ["PERFKMOD_KSRC"]
sys.path.insert(0, os.path.join(ksrc, "Documentation", "sphinx"))

project = "perfkmod"
copyright = "The perfkmod authors"
master_doc = "perfkmod"
extensions = ["kerneldoc"]
kerneldoc_bin = os.path.join(ksrc, "scripts", "kernel-doc")
kerneldoc_srctree = os.path.abspath(os.path.join(os.path.dirname(__file__),
                                                 ".."))
# What the kernel's conf.py tells Sphinx's C domain about kernel macros.
c_id_attributes = ["__percpu", "__rcu", "__user", "__iomem", "__must_check"]
exclude_patterns = ["_build"]
html_theme = "alabaster"
