// SPDX-License-Identifier: MIT
/*
 * Description: the dynamic-profiling codec writes CANN's exact wire bytes
 * (4100-byte params block, 8-byte messages, host endian), rejects bad
 * lengths and long socket paths, and the transport reports a half message
 * then close as -ECONNRESET and silence as -ETIMEDOUT.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <dynprof_wire.h>

#include "check.h"

static void test_params_bytes(void)
{
	static uint8_t out[DYNPROF_PARAMS_SIZE];
	const char *json = "{\"result_dir\":\"/tmp/x\",\"acl\":\"on\"}";
	uint32_t len = (uint32_t)strlen(json), got_len;
	char back[DYNPROF_PARAMS_DATA_LEN + 1];
	size_t i, nonzero = 0;

	CHECK_EQ(DYNPROF_PARAMS_SIZE, 4100);
	CHECK_EQ(sizeof(struct dynprof_params), 4100);
	memset(out, 0xaa, sizeof(out));
	CHECK_EQ(dynprof_encode_params(out, json), 0);
	memcpy(&got_len, out, 4);
	CHECK_EQ(got_len, 34);
	CHECK_EQ(got_len, len);
	CHECK(memcmp(out + 4, json, len) == 0);
	for (i = 4 + len; i < sizeof(out); i++)
		nonzero += out[i] != 0;
	CHECK_EQ(nonzero, 0);

	CHECK_EQ(dynprof_decode_params(out, back), 34);
	CHECK_STR(back, json);
}

static void test_params_limits(void)
{
	static uint8_t out[DYNPROF_PARAMS_SIZE];
	static char json[DYNPROF_PARAMS_DATA_LEN + 1];
	char back[DYNPROF_PARAMS_DATA_LEN + 1];
	uint32_t len;

	/* 4095 bytes fit (the server NUL-terminates), 4096 do not. */
	memset(json, 'x', DYNPROF_PARAMS_DATA_LEN - 1);
	json[DYNPROF_PARAMS_DATA_LEN - 1] = '\0';
	CHECK_EQ(dynprof_encode_params(out, json), 0);
	CHECK_EQ(dynprof_decode_params(out, back), 4095);
	json[DYNPROF_PARAMS_DATA_LEN - 1] = 'x';
	json[DYNPROF_PARAMS_DATA_LEN] = '\0';
	CHECK_EQ(dynprof_encode_params(out, json), -EMSGSIZE);

	len = 4096;
	memcpy(out, &len, 4);
	CHECK_EQ(dynprof_decode_params(out, back), -EBADMSG);
	len = 0xffffffffu;
	memcpy(out, &len, 4);
	CHECK_EQ(dynprof_decode_params(out, back), -EBADMSG);
	len = 0;
	memcpy(out, &len, 4);
	CHECK_EQ(dynprof_decode_params(out, back), 0);
	CHECK_STR(back, "");
}

static int host_is_little_endian(void)
{
	uint16_t one = 1;
	uint8_t first;

	memcpy(&first, &one, 1);
	return first == 1;
}

static void test_msg_bytes(void)
{
	uint8_t out[DYNPROF_MSG_SIZE];
	int32_t want[2] = { DYNPROF_STOP_RSQ, DYNPROF_NOT_START };
	struct dynprof_msg m;

	CHECK_EQ(sizeof(struct dynprof_msg), 8);
	dynprof_encode_msg(out, DYNPROF_STOP_RSQ, DYNPROF_NOT_START);
	CHECK(memcmp(out, want, 8) == 0);
	dynprof_decode_msg(out, &m);
	CHECK_EQ(m.type, 4);
	CHECK_EQ(m.status, 4);

	dynprof_encode_msg(out, DYNPROF_START_REQ, 0);
	/* Little-endian host: {01 00 00 00 00 00 00 00}. */
	if (host_is_little_endian()) {
		static const uint8_t le[8] = { 1, 0, 0, 0, 0, 0, 0, 0 };

		CHECK(memcmp(out, le, 8) == 0);
	}
	CHECK_STR(dynprof_type_name(DYNPROF_DISCONNECT_RSQ), "DISCONNECT_RSQ");
	CHECK_STR(dynprof_type_name(8), "UNKNOWN");
	CHECK_STR(dynprof_type_name(-1), "UNKNOWN");
	CHECK_STR(dynprof_status_name(DYNPROF_ALREADY_START), "already started");
}

static void test_socket_path(void)
{
	char buf[200], small[20];
	char home[120];

	CHECK_EQ(dynprof_socket_path(buf, sizeof(buf), "/root", 815596), 0);
	CHECK_STR(buf, "/root/dynamic_profiling_socket_815596");
	CHECK_EQ(dynprof_socket_path(small, sizeof(small), "/root", 815596), -ENAMETOOLONG);

	/* Fits buf but not the 108-byte sun_path: 80 + 1 + 25 + 2 = 108. */
	memset(home, 'h', 80);
	home[0] = '/';
	home[80] = '\0';
	CHECK_EQ(dynprof_socket_path(buf, sizeof(buf), home, 12), -ENAMETOOLONG);
	CHECK_EQ(dynprof_socket_path(buf, sizeof(buf), home, 1), 0);
	CHECK_EQ(strlen(buf), 107);
}

static void test_recv_half_then_close(void)
{
	uint8_t half[4] = { 1, 0, 0, 0 }, got[8];
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		CHECK_SKIP("socketpair failed");
	CHECK_EQ(dynprof_send_all(sv[1], half, sizeof(half), 1000), 0);
	close(sv[1]);
	CHECK_EQ(dynprof_recv_all(sv[0], got, sizeof(got), 1000), -ECONNRESET);
	close(sv[0]);
}

static void test_recv_silence_times_out(void)
{
	struct timespec a, b;
	uint8_t got[8];
	long ms;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		CHECK_SKIP("socketpair failed");
	clock_gettime(CLOCK_MONOTONIC, &a);
	CHECK_EQ(dynprof_recv_all(sv[0], got, sizeof(got), 200), -ETIMEDOUT);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
	CHECK(ms >= 190 && ms < 2000);
	close(sv[0]);
	close(sv[1]);
}

static void test_send_to_closed_peer(void)
{
	uint8_t msg[8] = { 0 };
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		CHECK_SKIP("socketpair failed");
	close(sv[1]);
	/* MSG_NOSIGNAL: no SIGPIPE kills the test, the error comes back. */
	CHECK_EQ(dynprof_send_all(sv[0], msg, sizeof(msg), 1000), -EPIPE);
	close(sv[0]);
}

static void test_roundtrip_whole_block(void)
{
	static uint8_t out[DYNPROF_PARAMS_SIZE], in[DYNPROF_PARAMS_SIZE];
	char json[DYNPROF_PARAMS_DATA_LEN + 1];
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		CHECK_SKIP("socketpair failed");
	CHECK_EQ(dynprof_encode_params(out, "{\"taskTime\":\"l1\"}"), 0);
	CHECK_EQ(dynprof_send_all(sv[0], out, sizeof(out), 1000), 0);
	CHECK_EQ(dynprof_recv_all(sv[1], in, sizeof(in), 1000), 0);
	CHECK(memcmp(in, out, sizeof(in)) == 0);
	CHECK_EQ(dynprof_decode_params(in, json), 17);
	CHECK_STR(json, "{\"taskTime\":\"l1\"}");
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	test_params_bytes();
	test_params_limits();
	test_msg_bytes();
	test_socket_path();
	test_recv_half_then_close();
	test_recv_silence_times_out();
	test_send_to_closed_peer();
	test_roundtrip_whole_block();
	return CHECK_DONE();
}
