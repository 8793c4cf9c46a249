/* SPDX-License-Identifier: MIT */
#include "cmd_verify.h"
#include "cli.h"
#include "../push/json.h"

#include "../model/diag.h"
#include "../intent/intent.h"
#include "../model/target.h"
#include "../targets/registry.h"
#include "../verbs/defpath.h"
#include "../verbs/probe.h"
#include "../push/verify.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct option probe_opts[] = {
    {"server", no_argument, NULL, 'S'},
    {"device", required_argument, NULL, 'd'},
    {"ib-port", required_argument, NULL, 'i'},
    {"gid-index", required_argument, NULL, 'x'},
    {"tclass", required_argument, NULL, 'c'},
    {"size", required_argument, NULL, 's'},
    {"iters", required_argument, NULL, 'n'},
    {"port", required_argument, NULL, 'p'},
    {"default-path", no_argument, NULL, 'D'},
    {"source", required_argument, NULL, 'a'},
    {NULL, 0, NULL, 0},
};

/*
 * --default-path (issue 35): rdma_cm UD datagrams that set no traffic class,
 * the server reporting the ToS each arrived with (verbs/defpath.h). One JSON
 * line, as the bandwidth test's.
 */
static int probe_default_path(const struct probe_opts *p, bool iters_given, const char *source)
{
	struct defpath_opts o = {.server = p->server,
				 .peer = p->peer,
				 .source = source,
				 .port = p->tcp_port,
				 .device = p->device,
				 .count = iters_given ? (int)p->iters : 50,
				 .timeout_s = 10};
	struct defpath_result r;
	char err[512];
	if (defpath_run(&o, &r, err, sizeof(err)) != 0) {
		fprintf(stderr, "qosgen probe: %s\n", err);
		return EXIT_SYSTEM;
	}
	if (o.server) {
		printf("{\"role\": \"server\", \"mode\": \"default-path\", \"device\": \"%s\", "
		       "\"received\": %d, \"tos\": [",
		       r.device, r.received);
		for (int k = 0; k < r.n_tos; k++)
			printf("%s%d", k ? ", " : "", r.tos[k]);
		printf("]}\n");
	} else {
		printf("{\"role\": \"client\", \"mode\": \"default-path\", \"device\": \"%s\", "
		       "\"sent\": %d, \"tclass\": %d}\n",
		       r.device, r.sent, r.tclass);
	}
	return EXIT_OK;
}

int cmd_probe(int argc, char **argv)
{
	struct probe_opts o = {
	    .tcp_port = 18515, .ib_port = 1, .gid_index = -1, .size = 65536, .iters = 5000};
	bool default_path = false, iters_given = false;
	const char *source = NULL;
	int c;
	while ((c = getopt_long(argc, argv, ":d:x:s:n:p:", probe_opts, NULL)) != -1) {
		long v = optarg ? strtol(optarg, NULL, 10) : 0;
		switch (c) {
		case 'S':
			o.server = true;
			break;
		case 'D':
			default_path = true;
			break;
		case 'a':
			source = optarg;
			break;
		case 'd':
			o.device = optarg;
			break;
		case 'i':
			o.ib_port = (int)v;
			break;
		case 'x':
			o.gid_index = (int)v;
			break;
		case 'c':
			if (v < 0 || v > 255)
				return cli_usage_error("probe",
						       "--tclass takes 0..255 (DSCP << 2 | ECN)");
			o.tclass = (int)v;
			break;
		case 's':
			if (v < 1 || v > 8388608)
				return cli_usage_error("probe", "--size takes 1..8388608 bytes");
			o.size = (size_t)v;
			break;
		case 'n':
			if (v < 1)
				return cli_usage_error("probe", "--iters takes a positive count");
			o.iters = (uint64_t)v;
			iters_given = true;
			break;
		case 'p':
			if (v < 1 || v > 65535)
				return cli_usage_error("probe", "--port takes 1..65535");
			o.tcp_port = (int)v;
			break;
		default:
			return cli_bad_option("probe", c, argv);
		}
	}
	if (!o.device)
		return cli_usage_error("probe", "name the RDMA device: -d DEV");
	if (o.server != (optind == argc))
		return cli_usage_error("probe",
				       o.server ? "a server takes no address"
						: "expected the server's address (or --server)");
	if (!o.server)
		o.peer = argv[optind];
	if (source && !default_path)
		return cli_usage_error("probe", "--source goes with --default-path");
	if (default_path && o.iters > 100000)
		return cli_usage_error("probe",
				       "--default-path sends at most 100000 datagrams (-n)");
	if (default_path)
		return probe_default_path(&o, iters_given, source);
	struct probe_result r;
	char err[512];
	if (probe_run(&o, &r, err, sizeof(err)) != 0) {
		fprintf(stderr, "qosgen probe: %s\n", err);
		return EXIT_SYSTEM;
	}
	printf("{\"role\": \"%s\", \"device\": \"%s\", \"gid_index\": %d, \"active_mtu\": %d, "
	       "\"path_mtu\": %d, \"tclass\": %d, \"size\": %llu, \"iters\": %llu, "
	       "\"seconds\": %.6f, \"gbps\": %.3f, \"msg_rate_mpps\": %.6f, "
	       "\"peer_version\": \"%s\"}\n",
	       o.server ? "server" : "client", o.device, r.gid_index, r.active_mtu, r.path_mtu,
	       o.tclass, (unsigned long long)r.size, (unsigned long long)r.iters, r.seconds, r.gbps,
	       r.msg_rate, r.peer_version);
	return EXIT_OK;
}

static const struct option verify_opts[] = {
    {"pair", required_argument, NULL, 'P'},	  {"json", no_argument, NULL, 'j'},
    {"port", required_argument, NULL, 'p'},	  {"known-hosts", required_argument, NULL, 'k'},
    {"accept-new", no_argument, NULL, 'A'},	  {"identity", required_argument, NULL, 'i'},
    {"ssh-config", required_argument, NULL, 'F'}, {"timeout", required_argument, NULL, 't'},
    {"ask-password", no_argument, NULL, 'W'},	  {NULL, 0, NULL, 0},
};

int cmd_verify(int argc, char **argv)
{
	struct verify_opts vo = {.tcp_port = 18515};
	struct push_opts po = {0};
	bool all = false, ask = false, json = false;
	int c;
	while ((c = getopt_long(argc, argv, ":p:", verify_opts, NULL)) != -1) {
		switch (c) {
		case 'P':
			vo.pair = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'p':
			vo.tcp_port = atoi(optarg);
			if (vo.tcp_port < 1 || vo.tcp_port > 65535)
				return cli_usage_error("verify", "--port takes 1..65535");
			break;
		case 'W':
			ask = true;
			break;
		default:
			switch (cli_ssh_option("verify", c, &po, &all)) {
			case 1:
				break;
			case -1:
				return EXIT_USAGE;
			default:
				return cli_bad_option("verify", c, argv);
			}
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("verify", "expected one INTENT file");
	cJSON *env = json ? cli_json_envelope("verify", argv[optind]) : NULL;
	struct qg_model m;
	int rc = cli_load(argv[optind], false, &m, env, NULL);
	if (rc == EXIT_OK) {
		vo.ssh = po.access.ssh;
		if (ask && cli_ask_password("verify", &vo.ssh) != EXIT_OK)
			rc = EXIT_SYSTEM;
		else {
			vo.json = env;
			rc = verify_run(&m, &vo);
		}
		cli_drop_password(&vo.ssh);
		qg_model_free(&m);
	}
	return json ? cli_json_finish(env, rc) : rc;
}
