// SPDX-License-Identifier: GPL-2.0
/* ascendsim.ko: npusim_main.c built as the realistic Ascend driver (npusim_tp.h). */
#define NPUSIM_FLAVOUR_ASCEND
#include "npusim_main.c"
