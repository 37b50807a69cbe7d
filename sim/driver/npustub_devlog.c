// SPDX-License-Identifier: GPL-2.0
/* npustub.ko: npusim_devlog.c built as the second simulated driver (npusim_tp.h). */
#define NPUSIM_FLAVOUR_STUB
#include "npusim_devlog.c"
