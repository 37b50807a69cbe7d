#!/usr/bin/env python3
"""A process of a launched job whose dynamic-profiling server listens but
never answers (outcomes.sh case 9): binds $HOME/dynamic_profiling_socket_<pid>,
accepts connections, reads nothing, replies nothing; exits after argv[1]
seconds."""
import os
import socket
import sys
import time

path = os.path.expanduser("~") + "/dynamic_profiling_socket_%d" % os.getpid()
srv = socket.socket(socket.AF_UNIX)
srv.bind(path)
srv.listen(8)
srv.settimeout(0.5)
held = []
end = time.time() + float(sys.argv[1])
while time.time() < end:
    try:
        held.append(srv.accept()[0])
    except socket.timeout:
        pass
os.unlink(path)
