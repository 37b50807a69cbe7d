// SPDX-License-Identifier: MIT
/*
 * Command line of the sample AI task, both ways: parse_options() reads it,
 * rank_argv() writes the one an exec'd rank gets, so the two stay next to
 * each other.  Every error names the option, the value given and the
 * values allowed.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai_task.h"

static void usage(FILE *out)
{
	fputs("usage: ai_task [OPTION]...\n"
	      "       ai_task --ranks=N [--spawn=fork|exec] [OPTION]...\n"
	      "Run training-step-like work on the simulated NPU through ACL and print\n"
	      "one JSON line of exact call and task counts to stdout.\n"
	      "With --ranks=N, call no ACL function but start N rank processes, as\n"
	      "torchrun does: rank r runs on device D+r (D from --device) with RANK,\n"
	      "LOCAL_RANK and WORLD_SIZE set, and prints its own JSON line; the exit\n"
	      "status is 0 only when every rank exits 0.  SIGINT and SIGTERM are\n"
	      "passed on to the ranks.  SIGUSR1 makes a rank end after the step each\n"
	      "thread is in and report the steps run.\n\n"
	      "  --steps=N         steps per thread, 1..1000000 (20)\n"
	      "  --threads=T       host threads, each with its own streams, 1..64 (1)\n"
	      "  --streams=S       streams per thread, 1..16 (1)\n"
	      "  --device=D        device id, 0..63 (0); with --ranks, rank 0's device\n"
	      "  --devices=LIST    comma-separated device ids, at most one per thread:\n"
	      "                    thread i runs on entry i % count (not with --device\n"
	      "                    or --ranks)\n"
	      "  --step-gap-ms=G   idle ms between steps, 0..60000 (50)\n"
	      "  --setup-delay-ms=D idle ms after aclInit, before any device is set,\n"
	      "                    0..600000 (0): a process with the runtime loaded\n"
	      "                    and no NPU device open yet\n"
	      "  --setup-wait-file=F after aclInit, wait (at most 10 min) until file F\n"
	      "                    exists before any device is set\n"
	      "  --kernels=FILE    kernel binary with MatMul, Add, LayerNorm and Softmax\n"
	      "                    (default: a built-in one; format in acl/acl_rt.h)\n"
	      "  --bytes=B         bytes of each H2D and D2H copy, 1..1073741824 (1048576)\n"
	      "  --quiet           no progress lines on stderr\n"
	      "  --ranks=N         start N rank processes, 1..64, and wait for them\n"
	      "  --spawn=MODE      how --ranks starts a rank: fork (the forked child\n"
	      "                    runs it) or exec (the child execs this program with\n"
	      "                    --rank=R --device=D and the other options) (fork)\n"
	      "  --rank=R          run as rank R, 0..63, of a job of $WORLD_SIZE ranks\n"
	      "                    (what --spawn=exec and run_ranks.sh pass)\n"
	      "  --help            this text\n",
	      out);
}

/* Parse @arg as a whole number in [@min, @max] for option @name. */
static int parse_uint(const char *name, const char *arg, unsigned long long min,
		      unsigned long long max, unsigned long long *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (!*arg || *end || errno || arg[0] == '-' || v < min || v > max) {
		fprintf(stderr, "ai_task: --%s=%s: expected a whole number from %llu to %llu\n",
			name, arg, min, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* @arg as a non-empty path for option @name (@what: what it names). */
static int parse_path(const char *name, const char *what, const char *arg, const char **out)
{
	if (!*arg) {
		fprintf(stderr, "ai_task: --%s=: expected %s\n", name, what);
		return -EINVAL;
	}
	*out = arg;
	return 0;
}

/* --devices=LIST: 1..APP_MAX_THREADS device ids, comma-separated. */
static int parse_devices(const char *arg, struct options *opt)
{
	const char *p = arg;
	unsigned long v;
	char *end;

	opt->nr_devices = 0;
	do {
		errno = 0;
		v = strtoul(p, &end, 10);
		if (!isdigit((unsigned char)*p) || errno || v > APP_MAX_DEVICE ||
		    (*end && *end != ',') || opt->nr_devices == APP_MAX_THREADS) {
			fprintf(stderr, "ai_task: --devices=%s: expected 1 to %d device ids from 0 to %d, separated by commas\n",
				arg, APP_MAX_THREADS, APP_MAX_DEVICE);
			return -EINVAL;
		}
		opt->devices[opt->nr_devices++] = (int)v;
		p = end + 1;
	} while (*end);
	return 0;
}

static int parse_spawn(const char *arg, struct options *opt)
{
	if (!strcmp(arg, "fork"))
		opt->spawn = SPAWN_FORK;
	else if (!strcmp(arg, "exec"))
		opt->spawn = SPAWN_EXEC;
	else {
		fprintf(stderr, "ai_task: --spawn=%s: expected fork or exec\n", arg);
		return -EINVAL;
	}
	return 0;
}

/*
 * The options, in the order rank_argv() writes them.  A new option a rank
 * uses must be passed on there too.
 */
enum { OPT_STEPS = 1, OPT_THREADS, OPT_STREAMS, OPT_DEVICE, OPT_DEVICES, OPT_GAP,
       OPT_SETUP_DELAY, OPT_SETUP_WAIT, OPT_KERNELS, OPT_BYTES, OPT_QUIET, OPT_RANKS, OPT_SPAWN, OPT_RANK, OPT_HELP };

static const struct option long_opts[] = {
	{ "steps", required_argument, NULL, OPT_STEPS },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "streams", required_argument, NULL, OPT_STREAMS },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "devices", required_argument, NULL, OPT_DEVICES },
	{ "step-gap-ms", required_argument, NULL, OPT_GAP },
	{ "setup-delay-ms", required_argument, NULL, OPT_SETUP_DELAY },
	{ "setup-wait-file", required_argument, NULL, OPT_SETUP_WAIT },
	{ "kernels", required_argument, NULL, OPT_KERNELS },
	{ "bytes", required_argument, NULL, OPT_BYTES },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "ranks", required_argument, NULL, OPT_RANKS },
	{ "spawn", required_argument, NULL, OPT_SPAWN },
	{ "rank", required_argument, NULL, OPT_RANK },
	{ "help", no_argument, NULL, OPT_HELP },
	{ 0 },
};

/* Apply one parsed option.  Return: 0, 1 for --help, -EINVAL. */
static int apply_option(int c, const char *arg, struct options *opt)
{
	unsigned long long v;
	int err = 0;

	switch (c) {
	case OPT_STEPS:
		err = parse_uint("steps", arg, 1, 1000000, &v);
		opt->steps = (unsigned int)v;
		break;
	case OPT_THREADS:
		err = parse_uint("threads", arg, 1, APP_MAX_THREADS, &v);
		opt->threads = (unsigned int)v;
		break;
	case OPT_STREAMS:
		err = parse_uint("streams", arg, 1, 16, &v);
		opt->streams = (unsigned int)v;
		break;
	case OPT_DEVICE:
		err = parse_uint("device", arg, 0, APP_MAX_DEVICE, &v);
		opt->device = (int)v;
		break;
	case OPT_DEVICES:
		return parse_devices(arg, opt);
	case OPT_GAP:
		err = parse_uint("step-gap-ms", arg, 0, 60000, &v);
		opt->step_gap_ms = (unsigned int)v;
		break;
	case OPT_SETUP_DELAY:
		err = parse_uint("setup-delay-ms", arg, 0, 600000, &v);
		opt->setup_delay_ms = (unsigned int)v;
		break;
	case OPT_SETUP_WAIT:
		err = parse_path("setup-wait-file", "a file path", arg, &opt->setup_wait_file);
		break;
	case OPT_KERNELS:
		err = parse_path("kernels", "a kernel binary path", arg, &opt->kernels);
		break;
	case OPT_BYTES:
		err = parse_uint("bytes", arg, 1, 1ULL << 30, &v);
		opt->bytes = (size_t)v;
		break;
	case OPT_QUIET:
		opt->quiet = 1;
		break;
	case OPT_RANKS:
		err = parse_uint("ranks", arg, 1, APP_MAX_DEVICE + 1, &v);
		opt->ranks = (unsigned int)v;
		break;
	case OPT_SPAWN:
		return parse_spawn(arg, opt);
	case OPT_RANK:
		err = parse_uint("rank", arg, 0, APP_MAX_DEVICE, &v);
		opt->rank = (int)v;
		break;
	case OPT_HELP:
		usage(stdout);
		return 1;
	default: /* getopt_long already said what is wrong */
		fputs("ai_task: see ai_task --help\n", stderr);
		return -EINVAL;
	}
	return err;
}

/* --rank=R: the job's size comes from WORLD_SIZE, as torchrun passes it. */
static int read_world_size(struct options *opt)
{
	const char *s = getenv("WORLD_SIZE");
	unsigned long v = 0;
	char *end = NULL;

	if (s && *s && *s != '-')
		v = strtoul(s, &end, 10);
	if (!end || *end || v <= (unsigned long)opt->rank || v > APP_MAX_DEVICE + 1) {
		fprintf(stderr, "ai_task: --rank=%d: WORLD_SIZE=%s in the environment; expected the number of ranks, %d to %d (launchers set it)\n",
			opt->rank, s ? s : "(unset)", opt->rank + 1, APP_MAX_DEVICE + 1);
		return -EINVAL;
	}
	opt->world_size = (unsigned int)v;
	return 0;
}

#define SEEN(c) (seen & (1UL << (c)))

/* Options that exclude or need each other; @seen has bit OPT_x per option given. */
static int check_combinations(struct options *opt, unsigned long seen)
{
	if (SEEN(OPT_DEVICES) && (SEEN(OPT_DEVICE) || SEEN(OPT_RANKS))) {
		fprintf(stderr, "ai_task: --devices cannot go with --%s: %s\n",
			SEEN(OPT_RANKS) ? "ranks" : "device",
			SEEN(OPT_RANKS) ? "each rank runs on one device, --device plus its rank"
					: "--devices already says every thread's device");
		return -EINVAL;
	}
	if (opt->nr_devices > opt->threads) {
		fprintf(stderr, "ai_task: --devices: %u devices for %u thread(s); give at most one per thread\n",
			opt->nr_devices, opt->threads);
		return -EINVAL;
	}
	if (opt->nr_devices)
		opt->device = opt->devices[0];
	if (SEEN(OPT_SPAWN) && !opt->ranks) {
		fputs("ai_task: --spawn only applies with --ranks=N\n", stderr);
		return -EINVAL;
	}
	if (opt->ranks && opt->rank >= 0) {
		fputs("ai_task: --rank and --ranks exclude each other: --ranks starts the ranks, --rank is one of them\n",
		      stderr);
		return -EINVAL;
	}
	if (opt->ranks && opt->device + opt->ranks - 1 > APP_MAX_DEVICE) {
		fprintf(stderr, "ai_task: --ranks=%u --device=%d: rank %u would run on device %u; device ids go up to %d\n",
			opt->ranks, opt->device, opt->ranks - 1, opt->device + opt->ranks - 1,
			APP_MAX_DEVICE);
		return -EINVAL;
	}
	return opt->rank >= 0 ? read_world_size(opt) : 0;
}

int parse_options(int argc, char **argv, struct options *opt)
{
	unsigned long seen = 0;
	int c, err;

	*opt = (struct options){
		.steps = 20, .threads = 1, .streams = 1, .device = 0,
		.step_gap_ms = 50, .kernels = NULL, .bytes = 1 << 20, .quiet = 0,
		.ranks = 0, .spawn = SPAWN_FORK, .rank = -1, .world_size = 1,
	};
	opterr = 1;
	while ((c = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
		err = apply_option(c, optarg, opt);
		if (err)
			return err;
		seen |= 1UL << c;
	}
	if (optind < argc) {
		fprintf(stderr, "ai_task: %s: unexpected argument; options take the form --name=value\n",
			argv[optind]);
		return -EINVAL;
	}
	return check_combinations(opt, seen);
}

int thread_device(const struct options *opt, unsigned int idx)
{
	return opt->nr_devices ? opt->devices[idx % opt->nr_devices] : opt->device;
}

void free_argv(char **argv)
{
	for (char **p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

/* Most arguments rank_argv() writes: argv0, nine options, the NULL. */
#define RANK_ARGC 13

/* Append one formatted argument at argv[*n].  Return: 0 or -ENOMEM. */
static int add_arg(char **argv, int *n, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (len < 0)
		return -ENOMEM;
	argv[(*n)++] = s;
	return 0;
}

char **rank_argv(const struct options *opt, unsigned int rank, const char *argv0)
{
	char **argv = calloc(RANK_ARGC, sizeof(*argv));
	int n = 0, err = 0;

	if (!argv)
		return NULL;
	err |= add_arg(argv, &n, "%s", argv0);
	err |= add_arg(argv, &n, "--rank=%u", rank);
	err |= add_arg(argv, &n, "--device=%u", opt->device + rank);
	err |= add_arg(argv, &n, "--steps=%u", opt->steps);
	err |= add_arg(argv, &n, "--threads=%u", opt->threads);
	err |= add_arg(argv, &n, "--streams=%u", opt->streams);
	err |= add_arg(argv, &n, "--step-gap-ms=%u", opt->step_gap_ms);
	if (opt->setup_delay_ms)
		err |= add_arg(argv, &n, "--setup-delay-ms=%u", opt->setup_delay_ms);
	if (opt->setup_wait_file)
		err |= add_arg(argv, &n, "--setup-wait-file=%s", opt->setup_wait_file);
	err |= add_arg(argv, &n, "--bytes=%zu", opt->bytes);
	if (opt->kernels)
		err |= add_arg(argv, &n, "--kernels=%s", opt->kernels);
	if (opt->quiet)
		err |= add_arg(argv, &n, "--quiet");
	if (err) {
		free_argv(argv);
		return NULL;
	}
	return argv;
}
