// SPDX-License-Identifier: GPL-2.0
/* npustub.ko: npusim_bench.c built as the second simulated driver (npusim_tp.h). */
#define NPUSIM_FLAVOUR_STUB
#include "npusim_bench.c"
