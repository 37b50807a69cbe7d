#!/usr/bin/env bash
# The simulated NPU driver npusim.ko in the test VM: tests/vm/npusim_basic.c
# (built by make) exercises and unloads the module loaded with two devices
# (see the program's banner for what it checks).  Exit 0 pass, 1 fail.
source "$(dirname "$0")/lib.bash"
vm_suite npusim 300 "insmod build/kmod/npusim.ko devices=2" npusim_basic
