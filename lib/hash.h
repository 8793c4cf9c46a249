/* SPDX-License-Identifier: MIT */
/* SHA-256 through OpenSSL's libcrypto, which libssh already links on Debian. */
#ifndef QG_HASH_H
#define QG_HASH_H

#include <stddef.h>

#define QG_SHA256_HEX 65

/* Returns 0, or -1 if libcrypto failed (out is then ""). */
int qg_sha256_hex(const void *data, size_t len, char out[QG_SHA256_HEX]);

#endif
