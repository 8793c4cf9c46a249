/* SPDX-License-Identifier: MIT */
#include "hash.h"

#include <openssl/evp.h>

int qg_sha256_hex(const void *data, size_t len, char out[QG_SHA256_HEX])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;
	static const char hex[] = "0123456789abcdef";
	out[0] = '\0';
	if (!EVP_Digest(data, len, md, &n, EVP_sha256(), NULL) || n != 32)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 15];
	}
	out[64] = '\0';
	return 0;
}
