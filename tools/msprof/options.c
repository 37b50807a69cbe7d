// SPDX-License-Identifier: MIT
/*
 * msprof command-line parsing and checking (see options.h).
 *
 * msprof declares every long option optional_argument for getopt_long, so
 * a value must follow '=' ("--output /x" is an error) and a unique prefix
 * of a name works.  We parse by hand rather than with getopt_long so each
 * error carries msprof's exact wording and nothing is printed here: the
 * caller prints @err once, through the one message helper.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <npuprof/drain.h>
#include <npuprof/writer_probe.h>
#include <npuprof/proc_id.h>

#include "options.h"
#include "server_find.h"

typedef int (*opt_set_fn)(struct msprof_options *o, const char *val, char *err);

/**
 * struct opt_def - one supported option
 * @name:      long name without "--"
 * @set:       stores the value; NULL for --help (takes none)
 * @values:    for --help: accepted values
 * @def:       for --help: default
 * @help:      for --help: one line
 */
struct opt_def {
	const char *name;
	opt_set_fn set;
	const char *values;
	const char *def;
	const char *help;
};

static int fail(char *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Put a usage message in @err; returns -EINVAL so callers can "return fail()". */
static int fail(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, MSPROF_ERR_MAX, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int parse_switch(const char *name, const char *val, int *out, char *err)
{
	if (!strcmp(val, "on")) {
		*out = 1;
		return 0;
	}
	if (!strcmp(val, "off")) {
		*out = 0;
		return 0;
	}
	return fail(err, "Argument --%s: invalid value: %s. Please input 'on' or 'off'.", name, val);
}

static int set_dynamic(struct msprof_options *o, const char *val, char *err)
{
	return parse_switch("dynamic", val, &o->dynamic, err);
}

static int set_ascendcl(struct msprof_options *o, const char *val, char *err)
{
	return parse_switch("ascendcl", val, &o->ascendcl, err);
}

static int set_runtime_api(struct msprof_options *o, const char *val, char *err)
{
	return parse_switch("runtime-api", val, &o->runtime_api, err);
}

static int set_require_server(struct msprof_options *o, const char *val, char *err)
{
	return parse_switch("require-server", val, &o->require_server, err);
}

static int set_export(struct msprof_options *o, const char *val, char *err)
{
	return parse_switch("export", val, &o->export_on, err);
}

static int set_check(struct msprof_options *o, const char *val, char *err)
{
	return parse_switch("check", val, &o->check_on, err);
}

static int set_query(struct msprof_options *o, const char *val, char *err)
{
	return parse_switch("query", val, &o->query_on, err);
}

static int set_task_time(struct msprof_options *o, const char *val, char *err)
{
	if (!strcmp(val, "on") || !strcmp(val, "l1"))
		o->task_time = MSPROF_TASK_TIME_L1;
	else if (!strcmp(val, "l0"))
		o->task_time = MSPROF_TASK_TIME_L0;
	else if (!strcmp(val, "off"))
		o->task_time = MSPROF_TASK_TIME_OFF;
	else if (!strcmp(val, "l2") || !strcmp(val, "l3"))
		return fail(err,
			    "Argument --task-time: level %s is not supported yet. Please input 'on', 'off', 'l0' or 'l1'.",
			    val);
	else
		return fail(err,
			    "Argument --task-time: invalid value: %s. Please input 'on', 'off', 'l0' or 'l1'.",
			    val);
	return 0;
}

static int set_type(struct msprof_options *o, const char *val, char *err)
{
	if (!strcmp(val, "text"))
		o->export_type = MSPROF_EXPORT_TEXT;
	else if (!strcmp(val, "db"))
		o->export_type = MSPROF_EXPORT_DB;
	else
		return fail(err, "Argument --type: invalid value: %s. Please input 'text' or 'db'.", val);
	return 0;
}

/* One pid of --pid: digits only (strtol alone would take " 12" and "+12"). */
static int parse_one_pid(const char *val, size_t len, pid_t *pid)
{
	char buf[16], *end;
	long v;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, val, len);
	buf[len] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (buf[0] < '0' || buf[0] > '9' || *end || errno || v <= 0 || v > INT_MAX)
		return -EINVAL;
	*pid = (pid_t)v;
	return 0;
}

/* --pid=P1[,P2...]: up to MSPROF_MAX_PIDS distinct processes. */
static int set_pid(struct msprof_options *o, const char *val, char *err)
{
	const char *p = val;
	unsigned int i;

	o->nr_pids = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		pid_t pid;

		if (parse_one_pid(p, len, &pid))
			return fail(err, "Argument --pid: invalid value: %s. Please input process IDs (positive numbers separated by commas).",
				    val);
		for (i = 0; i < o->nr_pids; i++)
			if (o->pids[i] == pid)
				return fail(err, "Argument --pid=%s: pid %d is given twice.", val, (int)pid);
		if (o->nr_pids == MSPROF_MAX_PIDS)
			return fail(err, "Argument --pid=%s: at most %d processes per msprof.", val,
				    MSPROF_MAX_PIDS);
		o->pids[o->nr_pids++] = pid;
		if (!p[len])
			break;
		p += len + 1;
	}
	o->pid = o->pids[0];
	return 0;
}

/* msprof's rule: no control characters and none of " ' \ % > < | & $ ; ` */
static int output_char_ok(unsigned char c)
{
	if (c < 0x20 || c == 0x7f)
		return 0;
	return !strchr("\"'\\%><|&$;`", c);
}

static int set_output(struct msprof_options *o, const char *val, char *err)
{
	size_t len = strlen(val), i;

	if (!len)
		return fail(err, "Argument --output: expected one argument (write --output=VALUE)");
	if (len > MSPROF_OUTPUT_MAX)
		return fail(err, "Argument --output is too long: %zu characters, at most %d.", len,
			    MSPROF_OUTPUT_MAX);
	for (i = 0; i < len; i++)
		if (!output_char_ok((unsigned char)val[i]))
			return fail(err, "Argument --output %s contains invalid character.", val);
	memcpy(o->output, val, len + 1);
	return 0;
}

/* --delay / --duration: whole seconds, 1..4294967295 as CANN takes them. */
static int parse_seconds(const char *name, const char *val, uint32_t *out, char *err)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(val, &end, 10);
	if (val[0] < '0' || val[0] > '9' || *end || errno || v < 1 || v > 4294967295ull)
		return fail(err, "Argument --%s: invalid value: %s. Please input whole seconds from 1 to 4294967295.",
			    name, val);
	*out = (uint32_t)v;
	return 0;
}

static int set_delay(struct msprof_options *o, const char *val, char *err)
{
	return parse_seconds("delay", val, &o->delay_s, err);
}

static int set_duration(struct msprof_options *o, const char *val, char *err)
{
	return parse_seconds("duration", val, &o->duration_s, err);
}

/*
 * --storage-limit=<N>MB: msprof's range, 200..4294967295 MB, the unit
 * spelled as CANN's PROFILING_OPTIONS "storage_limit" shows it ("200MB").
 */
static int set_storage_limit(struct msprof_options *o, const char *val, char *err)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(val, &end, 10);
	if (val[0] < '0' || val[0] > '9' || strcmp(end, "MB") || errno || v < 200 ||
	    v > 4294967295ull)
		return fail(err, "Argument --storage-limit: invalid value: %s. Please input <N>MB with N from 200 to 4294967295, e.g. --storage-limit=200MB.",
			    val);
	o->storage_limit_mb = (uint32_t)v;
	return 0;
}

/*
 * --application="APP ARGS": split at blanks (no shell quoting: put a
 * command that needs it in a script), into o->app_words.
 */
static int set_application(struct msprof_options *o, const char *val, char *err)
{
	size_t len = strlen(val);
	int n = 0;
	char *p;

	if (len >= sizeof(o->app_line))
		return fail(err, "Argument --application is too long: %zu characters, at most %zu.", len,
			    sizeof(o->app_line) - 1);
	memcpy(o->app_line, val, len + 1);
	for (p = strtok(o->app_line, " \t"); p; p = strtok(NULL, " \t")) {
		if (n == MSPROF_APP_WORDS)
			return fail(err, "Argument --application has more than %d words: put the command in a script.",
				    MSPROF_APP_WORDS);
		o->app_words[n++] = p;
	}
	if (!n)
		return fail(err, "Argument --application: expected one argument (write --application=\"APP ARGS\")");
	o->app_words[n] = NULL;
	o->application = 1;
	o->app_argv = o->app_words;
	o->app_argc = n;
	return 0;
}

/* --result=FILE: ours, not CANN's; one JSON line per PROF dir is appended. */
static int set_result(struct msprof_options *o, const char *val, char *err)
{
	size_t len = strlen(val);

	if (!len)
		return fail(err, "Argument --result: expected one argument (write --result=FILE)");
	if (len >= sizeof(o->result))
		return fail(err, "Argument --result is too long: %zu characters, at most %zu.", len,
			    sizeof(o->result) - 1);
	memcpy(o->result, val, len + 1);
	return 0;
}

static const struct opt_def opt_defs[] = {
	{ "dynamic", set_dynamic, "on|off", "off", "dynamic profiling: start/stop collection from a prompt" },
	{ "pid", set_pid, "PID[,PID...]", "none",
	  "attach to running apps (up to 64; one PROF dir per process); one without a dynamic-profiling server is captured from the kernel side" },
	{ "require-server", set_require_server, "on|off", "off",
	  "refuse a process without a dynamic-profiling server (attach: not started with PROFILING_MODE=dynamic; launch: cannot bind its socket in $HOME), as CANN's msprof does" },
	{ "output", set_output, "DIR", "current directory", "where PROF_XXX directories are written (created if missing)" },
	{ "ascendcl", set_ascendcl, "on|off", "on", "record AscendCL API calls" },
	{ "runtime-api", set_runtime_api, "on|off", "off", "record runtime API calls (libruntime.so, level Runtime)" },
	{ "task-time", set_task_time, "on|off|l0|l1", "on (= l1)", "record device tasks (l0 timing only, l1 with op info)" },
	{ "task-trace", set_task_time, NULL, NULL, NULL }, /* msprof's alias of --task-time */
	{ "export", set_export, "on|off", "off", "export PROF_XXX data under --output to timeline JSON, CSV and a database" },
	{ "type", set_type, "text|db", "text",
	  "export: text = timeline JSON, CSVs and the msprof_<time>.db database; db = the database alone" },
	{ "query", set_query, "on|off", "off",
	  "list the PROF_XXX directories under --output, a row per host and device folder (on a terminal a table, else tab-separated)" },
	{ "check", set_check, "on|off", "off",
	  "list what this host's NPU driver offers npuprof (tracepoints and their switches, submit modes, the device log and who holds it, the device clock), for a bug report; exit 0 when task begin/end can be captured on every device" },
	{ "application", set_application, "\"APP ARGS\"", "none",
	  "the app to run and profile (or give it after the options, as APP ARGS)" },
	{ "delay", set_delay, "S", "none", "app mode: start collecting S seconds after the app starts" },
	{ "duration", set_duration, "S", "none",
	  "app mode: collect for S seconds (after the delay), else until the app exits" },
	{ "storage-limit", set_storage_limit, "<N>MB", "none",
	  "keep each PROF dir's raw data under N MB (200 and up): the oldest slices are removed first" },
	{ "result", set_result, "FILE", "none",
	  "append one JSON line per PROF dir written (pid, dir, window, records, losses) for scripts" },
	{ "help", NULL, NULL, NULL, "print this help" },
};

#define N_OPTS (sizeof(opt_defs) / sizeof(opt_defs[0]))

/* msprof options npuprof knows by name but does not implement yet. */
static const char *const unsupported_opts[] = {
	"environment",
	"model-execution", "hccl", "aicpu", "ai-core", "aic-mode", "aic-freq",
	"aic-metrics", "ge-api", "task-memory", "msproftx", "mstx-domain-include",
	"mstx-domain-exclude", "l2", "sys-hardware-mem", "sys-hardware-mem-freq",
	"sys-cpu-profiling", "sys-cpu-freq", "sys-profiling", "sys-sampling-freq",
	"sys-pid-profiling", "sys-pid-sampling-freq", "sys-period", "sys-devices",
	"llc-profiling", "host-sys", "host-sys-pid", "host-sys-usage",
	"host-sys-usage-freq", "parse", "analyze", "clear",
	"summary-format", "iteration-id", "model-id", "reports", "rule",
	"python-path",
};

static const char supported_list[] =
	"--dynamic --pid --require-server --application --delay --duration --output --ascendcl --runtime-api --task-time --export "
	"--type --query --check --storage-limit --result --help";

#define N_UNSUPPORTED (sizeof(unsupported_opts) / sizeof(unsupported_opts[0]))

static int unsupported(const char *name, size_t len, char *err)
{
	return fail(err, "Argument --%.*s: this msprof option is not supported yet. Supported options: %s.",
		    (int)len, name, supported_list);
}

/*
 * Exact name, else a unique prefix (getopt_long's rule) among every name
 * msprof has: "--d" could be --dynamic, --delay or --duration, so it is
 * ambiguous here as it is in msprof, even though only one is supported.
 */
static int find_opt(const char *name, size_t len, const struct opt_def **out, char *err)
{
	const struct opt_def *hit = NULL;
	const char *other = NULL;
	size_t i;

	for (i = 0; i < N_OPTS; i++)
		if (strlen(opt_defs[i].name) == len && !strncmp(opt_defs[i].name, name, len)) {
			*out = &opt_defs[i];
			return 0;
		}
	for (i = 0; i < N_UNSUPPORTED; i++)
		if (strlen(unsupported_opts[i]) == len && !strncmp(unsupported_opts[i], name, len))
			return unsupported(name, len, err);
	for (i = 0; i < N_OPTS; i++) {
		if (strncmp(opt_defs[i].name, name, len) || (hit && hit->set == opt_defs[i].set))
			continue;
		if (hit)
			other = opt_defs[i].name;
		else
			hit = &opt_defs[i];
	}
	for (i = 0; i < N_UNSUPPORTED && !other; i++)
		if (!strncmp(unsupported_opts[i], name, len)) {
			if (hit)
				other = unsupported_opts[i];
			else
				return unsupported(name, len, err);
		}
	if (hit && other)
		return fail(err, "Argument --%.*s: ambiguous, it could be --%s or --%s.", (int)len, name,
			    hit->name, other);
	if (!hit)
		return fail(err, "Argument --%.*s: unknown option. Supported options: %s.", (int)len, name,
			    supported_list);
	*out = hit;
	return 0;
}

/* One "--name[=value]" word. */
static int parse_one(struct msprof_options *o, const char *word, char *err)
{
	const char *name = word + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct opt_def *def = NULL;
	int rc;

	rc = find_opt(name, len, &def, err);
	if (rc)
		return rc;
	if (!def->set) {
		if (eq)
			return fail(err, "Argument --%s: does not take a value", def->name);
		o->help = 1;
		return 0;
	}
	if (!eq)
		return fail(err, "Argument --%s: expected one argument (write --%s=VALUE)", def->name,
			    def->name);
	return def->set(o, eq + 1, err);
}

static void set_defaults(struct msprof_options *o)
{
	memset(o, 0, sizeof(*o));
	o->ascendcl = 1;
	o->task_time = MSPROF_TASK_TIME_L1;
}

int msprof_options_parse(int argc, char **argv, struct msprof_options *o, char *err)
{
	int i, rc;

	set_defaults(o);
	err[0] = '\0';
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (strncmp(argv[i], "--", 2))
			break; /* the app command starts here */
		rc = parse_one(o, argv[i], err);
		if (rc)
			return rc;
	}
	if (i < argc && o->application)
		return fail(err, "Argument --application is set and an app is given after the options (%s): give one of them.",
			    argv[i]);
	if (i < argc) {
		o->app_argv = &argv[i];
		o->app_argc = argc - i;
	}
	return 0;
}

/* Which mode the command line asks for, and its conflicts (msprof's order). */
static int check_mode(const struct msprof_options *o, char *err)
{
	if (o->check_on) {
		const char *with = o->dynamic ? "--dynamic" : o->app_argv ? "an application"
				 : o->pid ? "--pid" : o->export_on ? "--export"
				 : o->query_on ? "--query" : o->output[0] ? "--output"
				 : o->result[0] ? "--result" : o->storage_limit_mb ? "--storage-limit"
				 : NULL;

		if (with)
			return fail(err, "Argument --check=on is used alone, not with %s: msprof --check=on",
				    with);
		return 0;
	}
	if (o->pid && !o->dynamic)
		return fail(err, "Argument --dynamic=off, but --pid is set.");
	if (o->dynamic && !o->app_argv && !o->pid)
		return fail(err, "Argument --dynamic=on, but --application/--pid is all empty.");
	if (o->dynamic && o->app_argv && o->pid)
		return fail(err, "Argument --dynamic=on, can not set --application/--pid at the same time.");
	if (o->export_on && (o->dynamic || o->app_argv))
		return fail(err,
			    "Argument --export=on can not be used with --dynamic or an application: collect first, then run msprof --export=on --output=<dir>.");
	if (o->export_on && !o->output[0])
		return fail(err, "The argument --output is necessary when --export is not empty.");
	if (o->query_on && (o->dynamic || o->app_argv))
		return fail(err,
			    "Argument --query=on can not be used with --dynamic or an application: collect first, then run msprof --query=on --output=<dir>.");
	if (o->query_on && o->export_on)
		return fail(err, "The argument --query is forbidden when --export is not empty.");
	if (o->query_on && !o->output[0])
		return fail(err, "The argument --output is necessary when --query is not empty.");
	if ((o->export_on || o->query_on) && o->storage_limit_mb)
		return fail(err, "The argument --storage-limit is forbidden when --%s is not empty: it limits a collection.",
			    o->export_on ? "export" : "query");
	/* CANN documents delay/duration as unsupported with dynamic mode */
	if (o->dynamic && o->delay_s)
		return fail(err, "Argument --dynamic and --delay cannot be configured at the same time.");
	if (o->dynamic && o->duration_s)
		return fail(err, "Argument --dynamic and --duration cannot be configured at the same time.");
	if ((o->delay_s || o->duration_s) && !o->app_argv)
		return fail(err, "Argument --%s is for app mode: give the application to run.",
			    o->delay_s ? "delay" : "duration");
	if (o->require_server && !o->pid && !(o->dynamic && o->app_argv))
		return fail(err, "Argument --require-server=on is for dynamic mode: give --pid, or the app to launch with --dynamic=on (app mode talks to no server).");
	if (o->dynamic || o->export_on || o->query_on || o->app_argv)
		return 0; /* an app without --dynamic: app mode */
	return fail(err, "No valid argument found in --application --dynamic --query --export");
}

/* @o->output (or cwd) as an absolute path in @o->output_abs. */
static int resolve_output(struct msprof_options *o, char *err)
{
	char cwd[PATH_MAX];
	int n;

	if (o->output[0] == '/') {
		n = snprintf(o->output_abs, sizeof(o->output_abs), "%s", o->output);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return fail(err, "cannot get the current directory for --output: %s.", strerror(errno));
		n = o->output[0] ? snprintf(o->output_abs, sizeof(o->output_abs), "%s/%s", cwd, o->output)
				 : snprintf(o->output_abs, sizeof(o->output_abs), "%s", cwd);
	}
	if (n < 0 || (size_t)n >= sizeof(o->output_abs))
		return fail(err, "Argument --output %s is too long.", o->output);
	return 0;
}

/*
 * Check --output without creating it: the path itself, or else its nearest
 * existing parent, must be a directory we may write into.
 */
static int check_output(struct msprof_options *o, char *err)
{
	const char *shown = o->output[0] ? o->output : o->output_abs;
	char path[PATH_MAX];
	struct stat st;
	char *slash;

	memcpy(path, o->output_abs, sizeof(path));
	while (stat(path, &st)) {
		/* ENOTDIR: a parent is a file; the walk up finds and reports it. */
		if (errno != ENOENT && errno != ENOTDIR)
			return fail(err, "Argument --output %s: %s.", shown, strerror(errno));
		if (o->export_on || o->query_on)
			return fail(err, "Argument --output %s does not exist.", shown);
		slash = strrchr(path, '/');
		if (!slash || slash == path) {
			strcpy(path, "/");
			continue;
		}
		*slash = '\0';
	}
	if (!S_ISDIR(st.st_mode))
		return fail(err, "Argument --output %s is not a dir.", shown);
	if (!o->export_on && !o->query_on && access(path, W_OK | X_OK))
		return fail(err, "Argument --output %s permission denied.", shown);
	return 0;
}

int msprof_pid_problem(pid_t pid, char *buf, size_t size)
{
	struct npuprof_proc_id id;
	char proc[64];
	struct stat st;
	int rc;

	snprintf(proc, sizeof(proc), "/proc/%d", (int)pid);
	if (stat(proc, &st)) {
		snprintf(buf, size, "no such process (%s does not exist)", proc);
		return -ESRCH;
	}
	rc = npuprof_proc_id_read(pid, NULL, &id);
	if (rc == -ESRCH) {
		snprintf(buf, size, "the process has exited (a zombie: its parent has not reaped it yet)");
		return -ESRCH;
	}
	if (!rc && id.tgid != pid) {
		snprintf(buf, size, "%d is a thread of process %d: give the process id (--pid=%d)",
			 (int)pid, (int)id.tgid, (int)id.tgid);
		return -EINVAL;
	}
	return 0; /* unreadable otherwise: attaching says why */
}

/*
 * One --pid: the process exists, is no thread of another and no zombie
 * (msprof_pid_problem()); with --require-server=on, it has a
 * dynamic-profiling socket too (without, a process that has none is
 * captured from the kernel side: dynamic.c says so).
 */
static int check_pid(const struct msprof_options *o, char *err)
{
	char proc[64], sock[PATH_MAX], why[PATH_MAX + 96];
	struct stat st;
	int rc;

	if (msprof_pid_problem(o->pid, sock, sizeof(sock)))
		return fail(err, "Argument --pid=%d: %s.", (int)o->pid, sock);
	snprintf(proc, sizeof(proc), "/proc/%d", (int)o->pid);
	if (stat(proc, &st))
		return fail(err, "Argument --pid=%d: no such process (%s does not exist).", (int)o->pid, proc);
	if (!o->require_server)
		return 0;
	rc = msprof_socket_find_pid(o->pid, st.st_uid, sock, sizeof(sock));
	if (rc == -ENAMETOOLONG) {
		msprof_socket_unbindable(rc, sock, why, sizeof(why));
		return fail(err, "Argument --pid=%d: %s (--require-server=off captures it from the kernel side).",
			    (int)o->pid, why);
	}
	if (rc)
		return fail(err,
			    "Argument --pid=%d: no dynamic profiling socket %s: the process was not started with PROFILING_MODE=dynamic, or has not called aclInit yet (--require-server=off captures it from the kernel side).",
			    (int)o->pid, sock);
	return 0;
}

/*
 * Launch mode with --require-server=on: an app that cannot bind its
 * socket (msprof_launch_socket(): a path too long for a Unix socket, a
 * $HOME that is missing or not writable) can have no server: refused
 * before it is launched.  (Without, the job is captured from the kernel
 * side: dynamic.c.)
 */
static int check_launch_server(const struct msprof_options *o, char *err)
{
	char sock[PATH_MAX], why[2 * PATH_MAX + 96];
	int rc = msprof_launch_socket(sock, sizeof(sock));

	if (!rc)
		return 0;
	msprof_socket_unbindable(rc, sock, why, sizeof(why));
	return fail(err, "Argument --require-server=on: %s, so %s can have no dynamic-profiling server: set HOME to a short, writable directory, or --require-server=off to capture it from the kernel side.",
		    why, o->app_argv[0]);
}

/* --result: a regular file or none yet, in an existing writable directory. */
static int check_result(const struct msprof_options *o, char *err)
{
	char dir[PATH_MAX];
	struct stat st;
	char *slash;

	if (!o->result[0])
		return 0;
	if (o->export_on || o->query_on)
		return fail(err, "Argument --result is for capture, not with --%s.",
			    o->export_on ? "export" : "query");
	if (!stat(o->result, &st)) {
		if (!S_ISREG(st.st_mode))
			return fail(err, "Argument --result %s is not a regular file.", o->result);
		if (access(o->result, W_OK))
			return fail(err, "Argument --result %s permission denied.", o->result);
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s", o->result);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return fail(err, "Argument --result %s: directory %s does not exist.", o->result, dir);
	if (access(dir, W_OK | X_OK))
		return fail(err, "Argument --result %s: directory %s permission denied.", o->result, dir);
	return 0;
}

/*
 * NPUPROF_TASK_CAPTURE (the environment's choice of device-task path, read
 * by the session): a bad value is a usage error before anything starts,
 * not a failure after the app was launched.
 */
static int check_task_capture(const struct msprof_options *o, char *err)
{
	const char *v = getenv("NPUPROF_TASK_CAPTURE");

	if (o->export_on || !v || !*v || !strcmp(v, "auto") || !strcmp(v, "kmod") ||
	    !strcmp(v, "bpf"))
		return 0;
	return fail(err, "NPUPROF_TASK_CAPTURE=%s (environment) is not valid: use kmod, bpf or auto.",
		    v);
}

/* NPUPROF_WRITER (npuprof/drain.h), likewise a usage error when bad. */
static int check_writer(const struct msprof_options *o, char *err)
{
	const char *v = getenv("NPUPROF_WRITER");

	if (o->export_on || npuprof_writer_env() >= 0)
		return 0;
	return fail(err, "NPUPROF_WRITER=%s (environment) is not valid: use io_uring, pwrite or auto.",
		    v);
}

int msprof_options_check(struct msprof_options *o, char *err)
{
	int rc;

	err[0] = '\0';
	if (o->help)
		return 0;
	rc = check_mode(o, err);
	if (!rc)
		rc = check_task_capture(o, err);
	if (!rc)
		rc = check_writer(o, err);
	if (rc || o->check_on)
		return rc;
	rc = resolve_output(o, err);
	if (rc)
		return rc;
	rc = check_output(o, err);
	if (!rc)
		rc = check_result(o, err);
	if (rc)
		return rc;
	/* Several pids: each one's trouble is named at connect, the others go on. */
	if (o->nr_pids == 1)
		return check_pid(o, err);
	if (o->dynamic && o->app_argv && o->require_server)
		return check_launch_server(o, err);
	return 0;
}

void msprof_print_help(FILE *out)
{
	size_t i;

	fprintf(out,
		"Usage:\n"
		"  msprof --dynamic=on [options] <app> [app arguments]   launch an app, then start/stop at the prompt\n"
		"  msprof --dynamic=on --pid=PID[,PID...] [options]      attach to running apps (no restart needed)\n"
		"  msprof [--delay=S] [--duration=S] [options] <app>     app mode: collect the whole job, no prompt\n"
		"  msprof --export=on --output=DIR                       export PROF_XXX data to timeline JSON and CSV\n"
		"  msprof --query=on --output=DIR                        list the PROF_XXX dirs: Job Info, Device ID,\n"
		"                                                        Dir Name, Collection Time, Model ID, Iteration\n"
		"                                                        Number, Top Time Iteration, Rank ID (unknown: empty)\n"
		"  msprof --check=on                                     what this host's NPU driver offers npuprof\n"
		"\nOptions (values follow '=': --output=/x, not --output /x):\n");
	for (i = 0; i < N_OPTS; i++) {
		const struct opt_def *d = &opt_defs[i];
		char spelled[64];

		if (!d->help)
			continue;
		snprintf(spelled, sizeof(spelled), "--%s%s%s", d->name, d->values ? "=" : "",
			 d->values ? d->values : "");
		if (d->values)
			fprintf(out, "  %-26s %s (default: %s)\n", spelled, d->help, d->def);
		else
			fprintf(out, "  %-26s %s\n", spelled, d->help);
	}
	fprintf(out, "  %-26s msprof's alias of --task-time\n", "--task-trace=...");
	fprintf(out,
		"\nDevice tasks (--task-time) are captured in one of two ways, said at start:\n"
		"  npuprof.ko   when /dev/npuprof exists (insmod npuprof.ko): the module's probes on the\n"
		"               NPU driver's tracepoints write into its per-CPU rings;\n"
		"  BPF          when npuprof.ko is not loaded or cannot be (Secure Boot, kernel lockdown,\n"
		"               no kernel headers): BPF programs on the same tracepoints write the same\n"
		"               records into the BPF ring buffers the API capture uses. A tracepoint the\n"
		"               kernel lacks is named in a warning; its events are not captured.\n"
		"  NPUPROF_TASK_CAPTURE=kmod|bpf|auto (environment; default auto) forces one; with kmod\n"
		"  and no module msprof refuses to start (status %d).\n"
		"\nCommands at the dynamic profiling prompt: start, stop, quit (q), status, help (h).\n"
		"One prompt controls every process of --pid: each command goes to all of them.\n"
		"Exit status: 0 when every requested capture (or export) succeeded and is complete;\n"
		"  %d  failure: nothing captured or exported;\n"
		"  %d  usage error: a bad option or value, nothing started;\n"
		"  %d  incomplete: data saved but known to miss records or end early (said why);\n"
		"  %d  partial: some processes were captured and others not (each is named).\n"
		"In launch and app mode a non-zero exit status of the app is returned instead.\n",
		MSPROF_EXIT_FAILURE, MSPROF_EXIT_FAILURE, MSPROF_EXIT_USAGE, MSPROF_EXIT_INCOMPLETE, MSPROF_EXIT_PARTIAL);
}
