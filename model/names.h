/* SPDX-License-Identifier: MIT */
/*
 * Safe character sets. Every string from the intent that reaches generated
 * CLI or shell passes one of these first, so nothing in the intent can end a
 * quoted word, start an option, or add a command. The sets are deliberately
 * narrower than what the devices accept: none contains a quote, a backslash,
 * a dollar, a backtick, a semicolon, a newline or any other shell or CLI
 * metacharacter, and none lets a value start with '-'.
 */
#ifndef QG_NAMES_H
#define QG_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* Each checker has a matching "allowed" text for diagnostics. */
bool qg_name_ok(const char *s); /* fabric, switch and host names */
#define QG_NAME_RULE "1..63 characters of a-z 0-9 . _ -, starting with a letter or digit"

bool qg_dvs_name_ok(const char *s);
#define QG_DVS_NAME_RULE "1..80 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit"

bool qg_label_ok(const char *s); /* vSphere datacenter and portgroup names */
#define QG_LABEL_RULE                                                                              \
	"1..80 characters of A-Z a-z 0-9 . _ - and inner spaces, starting with a letter or digit"

bool qg_address_ok(const char *s);
#define QG_ADDRESS_RULE "a DNS name (letters, digits, '-' and '.'), an IPv4 or an IPv6 address"

/*
 * The one spelling of an address (qg_address_ok's) and SSH port that two
 * entries naming one device share: an IP address as inet_ntop writes it
 * ("::1" for "0:0::1"), a DNS name in lower case without its root dot.
 * Names that resolve to one address are not found: qosgen resolves nothing.
 */
void qg_address_key(const char *address, int port, char *out, size_t cap);

bool qg_user_ok(const char *s);
#define QG_USER_RULE "1..32 characters of a-z 0-9 _ . -, starting with a letter or '_'"

bool qg_netdev_ok(const char *s);
#define QG_NETDEV_RULE "1..15 characters of A-Z a-z 0-9 _ . -, starting with a letter or digit"

bool qg_rdma_device_ok(const char *s);
#define QG_RDMA_DEVICE_RULE "1..63 characters of A-Z a-z 0-9 _ . -, starting with a letter or digit"

bool qg_vmnic_ok(const char *s);
#define QG_VMNIC_RULE "vmnicN, N a number of 1..4 digits"
bool qg_vmknic_ok(const char *s);
#define QG_VMKNIC_RULE "vmkN, N a number of 1..4 digits"

bool qg_pool_name_ok(const char *s);
#define QG_POOL_RULE "1..20 characters of A-Z a-z 0-9 _ -, starting with a letter or digit"

/*
 * A device's path in diagnostics: "switches[leaf1]", by the name the reader
 * looks for in the file; by its 0-based index ("switches[2]") only when the
 * entry has no usable name (name NULL or ""). A name of digits only is quoted
 * ("switches['2']") so that it cannot read as an index. Cut to fit cap.
 */
void qg_device_path(char *out, size_t cap, const char *list, const char *name, size_t index);

/*
 * Levenshtein distance of two short words (99 past 32 characters), for the
 * "did you mean" of a mistyped key or command.
 */
size_t qg_edit_distance(const char *a, const char *b);

/*
 * Does a device's own hostname (from its read-back; "" when it prints none)
 * name the intent's device: its name, or its address's first DNS label
 * (case-insensitive)? The wrong host behind a name is how the wrong switch
 * gets configured.
 */
bool qg_hostname_matches(const char *hostname, const char *name, const char *address);

/*
 * A saved read-back whose hostname does not match (qg_hostname_matches): a
 * warning in d, since diff goes on (push refuses). "what" names the
 * read-back ("configuration", "running-config").
 */
struct qg_diags;
void qg_warn_other_host(struct qg_diags *d, const char *hostname, const char *name,
			const char *address, const char *what);

#endif
