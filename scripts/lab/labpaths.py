# SPDX-License-Identifier: GPL-2.0
"""Where the lab is: LAB, this directory (scripts/lab), and TOP, the top
of the tree it belongs to.  Every lab script finds its files from here."""

import os

LAB = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(LAB))
