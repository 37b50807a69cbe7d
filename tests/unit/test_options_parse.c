// SPDX-License-Identifier: MIT
/*
 * Description: msprof's command-line syntax: defaults, "--name=value" only
 * ("--output /x" is "expected one argument"), unique prefixes, the first
 * word not starting with "--" begins the app command, --pid takes a list of
 * up to 64 distinct pids, and each bad value gets msprof's exact error text.
 */
#include <errno.h>
#include <stdarg.h>

#include "check.h"
#include "options.h"

static struct msprof_options o;
static char err[MSPROF_ERR_MAX];

/* Parse a NULL-terminated list of words after "msprof". */
static int parse(const char *first, ...)
{
	static char *argv[32];
	const char *w;
	int argc = 0;
	va_list ap;

	argv[argc++] = "msprof";
	va_start(ap, first);
	for (w = first; w && argc < 31; w = va_arg(ap, const char *))
		argv[argc++] = (char *)w;
	va_end(ap);
	argv[argc] = NULL;
	return msprof_options_parse(argc, argv, &o, err);
}

static void test_defaults_and_app(void)
{
	CHECK_EQ(parse("--dynamic=on", "--output=/tmp/o", "./app", "--steps=3", "x", NULL), 0);
	CHECK_STR(err, "");
	CHECK_EQ(o.dynamic, 1);
	CHECK_EQ(o.pid, 0);
	CHECK_STR(o.output, "/tmp/o");
	CHECK_EQ(o.ascendcl, 1);
	CHECK_EQ(o.runtime_api, 0);
	CHECK_EQ(o.task_time, MSPROF_TASK_TIME_L1);
	CHECK_EQ(o.export_on, 0);
	CHECK_EQ(o.help, 0);
	CHECK_EQ(o.app_argc, 3);
	CHECK_STR(o.app_argv[0], "./app");
	CHECK_STR(o.app_argv[1], "--steps=3"); /* the app's, not ours */
	CHECK_STR(o.app_argv[2], "x");
	CHECK(o.app_argv[3] == NULL);

	CHECK_EQ(parse("--dynamic=on", "--", "--odd-app-name", NULL), 0);
	CHECK_EQ(o.app_argc, 1);
	CHECK_STR(o.app_argv[0], "--odd-app-name");

	CHECK_EQ(parse(NULL), 0);
	CHECK(o.app_argv == NULL);
	CHECK_EQ(o.dynamic, 0);
}

static void test_values(void)
{
	CHECK_EQ(parse("--dynamic=on", "--pid=1234", "--ascendcl=off", "--runtime-api=on", "--task-time=l0",
		       "--type=text", NULL),
		 0);
	CHECK_EQ(o.pid, 1234);
	CHECK_EQ(o.ascendcl, 0);
	CHECK_EQ(o.runtime_api, 1);
	CHECK_EQ(o.task_time, MSPROF_TASK_TIME_L0);
	CHECK_EQ(parse("--task-time=off", NULL), 0);
	CHECK_EQ(o.task_time, MSPROF_TASK_TIME_OFF);
	CHECK_EQ(parse("--task-time=on", NULL), 0);
	CHECK_EQ(o.task_time, MSPROF_TASK_TIME_L1);
	CHECK_EQ(parse("--task-trace=l0", NULL), 0); /* msprof's alias */
	CHECK_EQ(o.task_time, MSPROF_TASK_TIME_L0);
	CHECK_EQ(parse("--export=on", "--output=PROF_x", NULL), 0);
	CHECK_EQ(o.export_on, 1);
	CHECK_EQ(o.export_type, MSPROF_EXPORT_TEXT);
	CHECK_EQ(parse("--export=on", "--type=db", NULL), 0);
	CHECK_EQ(o.export_type, MSPROF_EXPORT_DB);
	CHECK_EQ(parse("--export=on", "--type=db", "--type=text", NULL), 0);
	CHECK_EQ(o.export_type, MSPROF_EXPORT_TEXT);
	CHECK_EQ(parse("--help", NULL), 0);
	CHECK_EQ(o.help, 1);
	/* getopt_long's unique prefixes, later options win */
	CHECK_EQ(parse("--dyn=on", "--runtime=on", "--out=/a", "--output=/b", NULL), 0);
	CHECK_EQ(o.dynamic, 1);
	CHECK_EQ(o.runtime_api, 1);
	CHECK_STR(o.output, "/b");
}

#define BAD(msg, ...)                                          \
	do {                                                   \
		CHECK_EQ(parse(__VA_ARGS__, NULL), -EINVAL);   \
		CHECK_STR(err, msg);                           \
	} while (0)

static void test_errors(void)
{
	BAD("Argument --output: expected one argument (write --output=VALUE)", "--output", "/x");
	BAD("Argument --pid: expected one argument (write --pid=VALUE)", "--dynamic=on", "--pid", "12");
	BAD("Argument --output: expected one argument (write --output=VALUE)", "--output=");
	BAD("Argument --dynamic: invalid value: yes. Please input 'on' or 'off'.", "--dynamic=yes");
	BAD("Argument --ascendcl: invalid value: ON. Please input 'on' or 'off'.", "--ascendcl=ON");
	BAD("Argument --runtime-api: invalid value: . Please input 'on' or 'off'.", "--runtime-api=");
	BAD("Argument --export: invalid value: 1. Please input 'on' or 'off'.", "--export=1");
	BAD("Argument --task-time: level l2 is not supported yet. Please input 'on', 'off', 'l0' or 'l1'.",
	    "--task-time=l2");
	BAD("Argument --task-time: level l3 is not supported yet. Please input 'on', 'off', 'l0' or 'l1'.",
	    "--task-time=l3");
	BAD("Argument --task-time: invalid value: l4. Please input 'on', 'off', 'l0' or 'l1'.", "--task-time=l4");
	BAD("Argument --type: invalid value: csv. Please input 'text' or 'db'.", "--type=csv");
	BAD("Argument --pid: invalid value: abc. Please input process IDs (positive numbers separated by commas).",
	    "--pid=abc");
	BAD("Argument --pid: invalid value: 12a. Please input process IDs (positive numbers separated by commas).",
	    "--pid=12a");
	BAD("Argument --pid: invalid value: -5. Please input process IDs (positive numbers separated by commas).",
	    "--pid=-5");
	BAD("Argument --pid: invalid value: 0. Please input process IDs (positive numbers separated by commas).",
	    "--pid=0");
	BAD("Argument --pid: invalid value:  7. Please input process IDs (positive numbers separated by commas).",
	    "--pid= 7");
	BAD("Argument --pid: invalid value: 99999999999. Please input process IDs (positive numbers separated by commas).",
	    "--pid=99999999999");
	BAD("Argument --pid: invalid value: 12,. Please input process IDs (positive numbers separated by commas).",
	    "--pid=12,");
	BAD("Argument --pid: invalid value: ,12. Please input process IDs (positive numbers separated by commas).",
	    "--pid=,12");
	BAD("Argument --pid: invalid value: 12,,13. Please input process IDs (positive numbers separated by commas).",
	    "--pid=12,,13");
	BAD("Argument --pid=12,13,12: pid 12 is given twice.", "--pid=12,13,12");
	BAD("Argument --help: does not take a value", "--help=1");
	BAD("Argument --bogus: unknown option. Supported options: --dynamic --pid --require-server --application --delay "
	    "--duration --output --ascendcl --runtime-api --task-time --export --type --query --check --storage-limit "
	    "--result --help.",
	    "--bogus=1");
	BAD("Argument --aicpu: this msprof option is not supported yet. Supported options: --dynamic --pid "
	    "--require-server --application --delay --duration --output --ascendcl --runtime-api --task-time --export --type "
	    "--query --check --storage-limit --result --help.",
	    "--aicpu=on");
	BAD("Argument --t: ambiguous, it could be --task-time or --type.", "--t=on");
	/* Regression: prefixes were matched against supported names only, so
	 * these were taken as --dynamic, --pid and --export. */
	BAD("Argument --d: ambiguous, it could be --dynamic or --duration.", "--d=on");
	BAD("Argument --p: ambiguous, it could be --pid or --parse.", "--p=1");
	BAD("Argument --e: ambiguous, it could be --export or --environment.", "--e=on");

}

/* App mode's options: --application splits at blanks, seconds are 1..2^32-1. */
static void test_app_mode(void)
{
	CHECK_EQ(parse("--application=./app  --steps=3 x", "--output=/tmp/o", NULL), 0);
	CHECK_EQ(o.app_argc, 3);
	CHECK_STR(o.app_argv[0], "./app");
	CHECK_STR(o.app_argv[1], "--steps=3");
	CHECK_STR(o.app_argv[2], "x");
	CHECK(o.app_argv[3] == NULL);
	CHECK_EQ(parse("--app=./x", NULL), 0); /* a prefix of --application */
	CHECK_STR(o.app_argv[0], "./x");
	CHECK_EQ(parse("--delay=1", "--duration=4294967295", "./app", NULL), 0);
	CHECK_EQ(o.delay_s, 1);
	CHECK_EQ(o.duration_s, 4294967295u);
	BAD("Argument --delay: invalid value: 0. Please input whole seconds from 1 to 4294967295.", "--delay=0");
	BAD("Argument --duration: invalid value: 4294967296. Please input whole seconds from 1 to 4294967295.",
	    "--duration=4294967296");
	BAD("Argument --delay: invalid value: 1.5. Please input whole seconds from 1 to 4294967295.", "--delay=1.5");
	BAD("Argument --application: expected one argument (write --application=\"APP ARGS\")", "--application= ");
	BAD("Argument --application is set and an app is given after the options (./b): give one of them.",
	    "--application=./a", "./b");
}

/* --pid=P1,P2,...: every pid in order, at most 64 of them. */
static void test_pid_list(void)
{
	static char arg[1024];
	size_t n;
	int i;

	CHECK_EQ(parse("--dynamic=on", "--pid=12,13,4000000", NULL), 0);
	CHECK_EQ(o.nr_pids, 3);
	CHECK_EQ(o.pids[0], 12);
	CHECK_EQ(o.pids[1], 13);
	CHECK_EQ(o.pids[2], 4000000);
	CHECK_EQ(o.pid, 12);
	CHECK_EQ(parse("--dynamic=on", "--pid=77", NULL), 0);
	CHECK_EQ(o.nr_pids, 1);
	CHECK_EQ(o.pid, 77);

	n = (size_t)snprintf(arg, sizeof(arg), "--pid=");
	for (i = 1; i <= 64; i++)
		n += (size_t)snprintf(arg + n, sizeof(arg) - n, "%s%d", i > 1 ? "," : "", 100 + i);
	CHECK_EQ(parse("--dynamic=on", arg, NULL), 0);
	CHECK_EQ(o.nr_pids, 64);
	CHECK_EQ(o.pids[63], 164);
	snprintf(arg + n, sizeof(arg) - n, ",165");
	CHECK_EQ(parse("--dynamic=on", arg, NULL), -EINVAL);
	CHECK(!strncmp(err, "Argument --pid=101,102,", 23));
	CHECK(strstr(err, ": at most 64 processes per msprof.") != NULL);
}

static void test_output_chars(void)
{
	static char long_out[1100];
	const char *bad[] = { "/tmp/a;b", "/tmp/a b\n", "/tmp/$HOME", "/tmp/a|b", "/tmp/a&b", "/tmp/a>b",
			      "/tmp/a<b", "/tmp/`x`", "/tmp/'q'", "/tmp/\"q\"", "/tmp/a\\b", "/tmp/50%",
			      "/tmp/\t", "/tmp/\x7f" };
	char arg[64], want[128];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(arg, sizeof(arg), "--output=%s", bad[i]);
		snprintf(want, sizeof(want), "Argument --output %s contains invalid character.", bad[i]);
		CHECK_EQ(parse(arg, NULL), -EINVAL);
		CHECK_STR(err, want);
	}
	/* 1024 characters are fine, 1025 are not. */
	memcpy(long_out, "--output=/", 10);
	memset(long_out + 10, 'd', 1023);
	CHECK_EQ(parse(long_out, NULL), 0);
	CHECK_EQ(strlen(o.output), 1024);
	long_out[10 + 1023] = 'd';
	CHECK_EQ(parse(long_out, NULL), -EINVAL);
	CHECK_STR(err, "Argument --output is too long: 1025 characters, at most 1024.");
	CHECK_EQ(parse("--output=/tmp/ok-dir_1.2+x@y", NULL), 0);
}

int main(void)
{
	test_defaults_and_app();
	test_values();
	test_errors();
	test_pid_list();
	test_app_mode();
	test_output_chars();
	return CHECK_DONE();
}
