// SPDX-License-Identifier: MIT
/*
 * Description: the msprof binary itself: a usage error prints exactly
 * "[ERROR] msprof: <msg>" and the --help hint on stderr, nothing on
 * stdout, exits with status 2 and creates no --output directory; --help
 * lists every supported option with its values and default and exits 0.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "tmpdir.h"

static char msprof[PATH_MAX];

/* Read all of @fd into a malloc'd string. */
static char *slurp(int fd)
{
	size_t cap = 65536, used = 0;
	char *buf = calloc(1, cap);
	ssize_t n;

	while (used < cap - 1 && (n = read(fd, buf + used, cap - 1 - used)) > 0)
		used += (size_t)n;
	buf[used] = '\0';
	return buf;
}

/* Run msprof with @argv; return its wait status, stdout and stderr. */
static int run(char *const argv[], char **out, char **err)
{
	int po[2], pe[2], status = -1;
	pid_t pid;

	if (pipe(po) || pipe(pe))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(po[1], STDOUT_FILENO);
		dup2(pe[1], STDERR_FILENO);
		close(po[0]);
		close(pe[0]);
		execv(msprof, argv);
		_exit(126);
	}
	close(po[1]);
	close(pe[1]);
	*out = slurp(po[0]);
	*err = slurp(pe[0]);
	close(po[0]);
	close(pe[0]);
	waitpid(pid, &status, 0);
	return status;
}

static void expect_usage_error(char *const argv[], const char *msg)
{
	char want[1024], *out, *err;
	int status = run(argv, &out, &err);

	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 2);
	snprintf(want, sizeof(want), "[ERROR] msprof: %s\nRun 'msprof --help' for the supported options.\n", msg);
	CHECK_STR(err, want);
	CHECK_STR(out, "");
	free(out);
	free(err);
}

static void test_help(void)
{
	static const char *const must[] = {
		"--dynamic=on|off", "(default: off)", "--pid=PID", "--output=DIR", "--ascendcl=on|off",
		"(default: on)", "--runtime-api=on|off", "--task-time=on|off|l0|l1", "(default: on (= l1))",
		"--export=on|off", "--type=text|db", "--help", "start, stop, quit (q), status, help (h)",
		"--pid=PID[,PID...]", "Exit status: 0 when every requested capture (or export) succeeded", "4  partial: some processes",
	};
	char *argv[] = { "msprof", "--help", NULL };
	char *out, *err;
	size_t i;
	int status = run(argv, &out, &err);

	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_STR(err, "");
	for (i = 0; i < sizeof(must) / sizeof(must[0]); i++)
		if (!strstr(out, must[i])) {
			fprintf(stderr, "--help lacks \"%s\"\n", must[i]);
			check_failures++;
		}
	free(out);
	free(err);
}

int main(int argc, char **argv)
{
	char self[PATH_MAX], tmp[] = "/tmp/test_options_exit.XXXXXX", outdir[128], arg[160];
	struct stat st;
	ssize_t n;

	(void)argc;
	(void)argv;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		CHECK_SKIP("no /proc/self/exe");
	self[n] = '\0';
	snprintf(msprof, sizeof(msprof), "%s/../bin/msprof", dirname(self));
	if (access(msprof, X_OK))
		CHECK_SKIP("build/bin/msprof not built");
	if (!mkdtemp(tmp))
		CHECK_SKIP("mkdtemp failed");
	snprintf(outdir, sizeof(outdir), "%s/out", tmp);
	snprintf(arg, sizeof(arg), "--output=%s", outdir);

	test_help();
	{
		char *a[] = { "msprof", "--output", "/x", NULL };

		expect_usage_error(a, "Argument --output: expected one argument (write --output=VALUE)");
	}
	{
		char *a[] = { "msprof", NULL };

		expect_usage_error(a, "No valid argument found in --application --dynamic --query --export");
	}
	{
		char *a[] = { "msprof", "--dynamic=on", arg, "--task-time=l2", "/bin/true", NULL };

		expect_usage_error(a, "Argument --task-time: level l2 is not supported yet. Please input 'on', "
				      "'off', 'l0' or 'l1'.");
	}
	{
		char *a[] = { "msprof", "--dynamic=on", arg, "--pid=999999999", NULL };

		expect_usage_error(a, "Argument --pid=999999999: no such process (/proc/999999999 does not exist).");
	}
	CHECK(stat(outdir, &st) && errno == ENOENT);
	tmpdir_remove(tmp);
	return CHECK_DONE();
}
