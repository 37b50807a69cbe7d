// SPDX-License-Identifier: MIT
/*
 * Command line of the sample AI task.  Every error names the option, the
 * value given and the values allowed.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai_task.h"

static void usage(FILE *out)
{
	fputs("usage: ai_task [OPTION]...\n"
	      "Run training-step-like work on the simulated NPU through ACL and print\n"
	      "one JSON line of exact call and task counts to stdout.\n\n"
	      "  --steps=N         steps per thread, 1..1000000 (20)\n"
	      "  --threads=T       host threads, each with its own streams, 1..64 (1)\n"
	      "  --streams=S       streams per thread, 1..16 (1)\n"
	      "  --device=D        device id, 0..63 (0)\n"
	      "  --devices=LIST    comma-separated device ids, at most one per thread:\n"
	      "                    thread i runs on entry i % count (not with --device)\n"
	      "  --step-gap-ms=G   idle ms between steps, 0..60000 (50)\n"
	      "  --kernels=FILE    kernel binary with MatMul, Add, LayerNorm and Softmax\n"
	      "                    (default: a built-in one; format in acl/acl_rt.h)\n"
	      "  --bytes=B         bytes of each H2D and D2H copy, 1..1073741824 (1048576)\n"
	      "  --quiet           no progress lines on stderr\n"
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

enum { OPT_STEPS = 1, OPT_THREADS, OPT_STREAMS, OPT_DEVICE, OPT_DEVICES, OPT_GAP,
       OPT_KERNELS, OPT_BYTES, OPT_QUIET, OPT_HELP };

static const struct option long_opts[] = {
	{ "steps", required_argument, NULL, OPT_STEPS },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "streams", required_argument, NULL, OPT_STREAMS },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "devices", required_argument, NULL, OPT_DEVICES },
	{ "step-gap-ms", required_argument, NULL, OPT_GAP },
	{ "kernels", required_argument, NULL, OPT_KERNELS },
	{ "bytes", required_argument, NULL, OPT_BYTES },
	{ "quiet", no_argument, NULL, OPT_QUIET },
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
	case OPT_KERNELS:
		if (!*arg) {
			fprintf(stderr, "ai_task: --kernels=: expected a kernel binary path\n");
			return -EINVAL;
		}
		opt->kernels = arg;
		break;
	case OPT_BYTES:
		err = parse_uint("bytes", arg, 1, 1ULL << 30, &v);
		opt->bytes = (size_t)v;
		break;
	case OPT_QUIET:
		opt->quiet = 1;
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

#define SEEN(c) (seen & (1UL << (c)))

/* Options that exclude or need each other; @seen has bit OPT_x per option given. */
static int check_combinations(struct options *opt, unsigned long seen)
{
	if (SEEN(OPT_DEVICES) && SEEN(OPT_DEVICE)) {
		fputs("ai_task: --devices cannot go with --device: --devices already says every thread's device\n",
		      stderr);
		return -EINVAL;
	}
	if (opt->nr_devices > opt->threads) {
		fprintf(stderr, "ai_task: --devices: %u devices for %u thread(s); give at most one per thread\n",
			opt->nr_devices, opt->threads);
		return -EINVAL;
	}
	if (opt->nr_devices)
		opt->device = opt->devices[0];
	return 0;
}

int parse_options(int argc, char **argv, struct options *opt)
{
	unsigned long seen = 0;
	int c, err;

	*opt = (struct options){
		.steps = 20, .threads = 1, .streams = 1, .device = 0,
		.step_gap_ms = 50, .kernels = NULL, .bytes = 1 << 20, .quiet = 0,
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
