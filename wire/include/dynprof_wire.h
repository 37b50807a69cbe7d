/* SPDX-License-Identifier: MIT */
/*
 * Dynamic-profiling socket protocol, wire-compatible with CANN's
 * (dyn_prof_def.h in hicann/runtime src/dfx/msprof/collector/dvvp and
 * hicann/oam-tools; see shared/reference/msprof.md section 2).
 *
 * Transport: AF_UNIX SOCK_STREAM socket at
 * $HOME/dynamic_profiling_socket_<key>, mode 0600, key =
 * $DYNAMIC_PROFILING_KEY_PID if set, else the server's pid.
 *
 * Exchange:
 *  1. client -> server: struct dynprof_params, always all 4100 bytes
 *     (host-endian u32 length of the JSON, then 4096 bytes holding it);
 *     server -> client: {DYNPROF_PARAMS_RSQ, SUCCESS|FAIL}.
 *  2. per command: client -> {X_REQ, 0}; server -> {X_REQ + 1, code}.
 *     Any other reply type counts as failure.
 *  3. on disconnect the server sends {DYNPROF_DISCONNECT_RSQ, SUCCESS}.
 * Timeouts (CANN's): 1 s in the handshake, 60 s per command.
 *
 * This codec is shared by the server inside the simulated runtime
 * (sim/runtime) and the client in msprof (tools/msprof); both sides use
 * it so the byte layout is defined once.  It is a library of its own
 * (wire/, built as libdynprof_wire.a and as PIC objects for the runtime):
 * it depends on libc only, never on npuprof's product code, and has its
 * own tests (wire/tests/).
 */
#ifndef DYNPROF_WIRE_H
#define DYNPROF_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define DYNPROF_SOCKET_PREFIX "dynamic_profiling_socket_"
#define DYNPROF_PARAMS_DATA_LEN 4096
#define DYNPROF_PARAMS_SIZE (4 + DYNPROF_PARAMS_DATA_LEN) /* 4100 bytes */
#define DYNPROF_MSG_SIZE 8
#define DYNPROF_HANDSHAKE_TIMEOUT_MS 1000
#define DYNPROF_COMMAND_TIMEOUT_MS 60000
#define DYNPROF_MAX_MESSAGES 100 /* per connection, then the server drops it */

/* MsgType: values are the wire values. */
enum dynprof_msg_type {
	DYNPROF_PARAMS_RSQ = 0,
	DYNPROF_START_REQ = 1,
	DYNPROF_START_RSQ = 2,
	DYNPROF_STOP_REQ = 3,
	DYNPROF_STOP_RSQ = 4,
	DYNPROF_QUIT_REQ = 5,
	DYNPROF_QUIT_RSQ = 6,
	DYNPROF_DISCONNECT_RSQ = 7,
};

/* RsqCode: values are the wire values. */
enum dynprof_status {
	DYNPROF_SUCCESS = 0,
	DYNPROF_FAIL = 1,
	DYNPROF_ALREADY_START = 2,
	DYNPROF_NOT_SET_DEVICE = 3,
	DYNPROF_NOT_START = 4,
};

/** struct dynprof_msg - one 8-byte command or reply, host endian */
struct dynprof_msg {
	int32_t type;	/* enum dynprof_msg_type */
	int32_t status; /* enum dynprof_status; 0 in requests */
};

/**
 * struct dynprof_params - the 4100-byte parameter block
 * @len:  bytes of JSON in @data, < DYNPROF_PARAMS_DATA_LEN
 * @data: the ProfileParams JSON, NUL-padded
 */
struct dynprof_params {
	uint32_t len;
	char data[DYNPROF_PARAMS_DATA_LEN];
};

/**
 * dynprof_socket_path() - build $HOME/dynamic_profiling_socket_<key>
 * @buf: output, @size bytes
 * @home: home directory (the caller resolves $HOME or getpwuid)
 * @key: the pid or DYNAMIC_PROFILING_KEY_PID value
 *
 * Return: 0, or -ENAMETOOLONG when the path does not fit @buf or the
 * 108-byte sun_path of a Unix socket.
 */
int dynprof_socket_path(char *buf, size_t size, const char *home, long key);

/**
 * dynprof_encode_params() - fill the 4100-byte wire image of @json
 * @out:  DYNPROF_PARAMS_SIZE bytes
 * @json: NUL-terminated JSON text
 *
 * Return: 0, or -EMSGSIZE when @json is DYNPROF_PARAMS_DATA_LEN bytes or more.
 */
int dynprof_encode_params(uint8_t out[DYNPROF_PARAMS_SIZE], const char *json);

/**
 * dynprof_decode_params() - check and extract the JSON of a wire image
 * @in:   DYNPROF_PARAMS_SIZE bytes as received
 * @json: output buffer of DYNPROF_PARAMS_DATA_LEN + 1 bytes, NUL-terminated
 *
 * Return: length of the JSON, or -EBADMSG when the length field is out of
 * range.
 */
int dynprof_decode_params(const uint8_t in[DYNPROF_PARAMS_SIZE], char *json);

/** dynprof_encode_msg() - 8-byte wire image of {type, status}. */
void dynprof_encode_msg(uint8_t out[DYNPROF_MSG_SIZE], int32_t type, int32_t status);

/** dynprof_decode_msg() - read {type, status} from an 8-byte wire image. */
void dynprof_decode_msg(const uint8_t in[DYNPROF_MSG_SIZE], struct dynprof_msg *msg);

/**
 * dynprof_send_all() - write all @len bytes of @buf to stream socket @fd
 * Return: 0, -ETIMEDOUT after @timeout_ms without progress, -EPIPE when
 * the peer has gone, or another -errno.
 */
int dynprof_send_all(int fd, const void *buf, size_t len, int timeout_ms);

/**
 * dynprof_recv_all() - read exactly @len bytes from stream socket @fd
 * Return: 0, -ETIMEDOUT after @timeout_ms without a whole message,
 * -ECONNRESET when the peer closed before @len bytes, or another -errno.
 */
int dynprof_recv_all(int fd, void *buf, size_t len, int timeout_ms);

/** dynprof_status_name() - "success", "fail", "already started", ... */
const char *dynprof_status_name(int32_t status);

/** dynprof_type_name() - "START_REQ", ... for logs; "UNKNOWN" otherwise */
const char *dynprof_type_name(int32_t type);

#endif /* DYNPROF_WIRE_H */
