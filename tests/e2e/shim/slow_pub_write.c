/* SPDX-License-Identifier: MIT */
/*
 * LD_PRELOAD fault injection for tests/e2e/ssh.c: a file opened for writing
 * whose name ends in ".pub" is closed (and so flushed) only after 300 ms.
 * libssh writes KEY.pub that way when it derives a public key from a private
 * key file; the delay holds open the window in which another session of the
 * same process reads KEY.pub empty, so the test of that race fails every time
 * the race is possible, not once in a hundred runs. Nothing else is touched.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *slow[8];

FILE *fopen(const char *path, const char *mode)
{
	FILE *(*real)(const char *, const char *) =
	    (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
	FILE *f = real(path, mode);
	size_t n = strlen(path);
	if (f && mode[0] == 'w' && n > 4 && strcmp(path + n - 4, ".pub") == 0) {
		pthread_mutex_lock(&lock);
		for (size_t i = 0; i < sizeof(slow) / sizeof(slow[0]); i++)
			if (!slow[i]) {
				slow[i] = f;
				break;
			}
		pthread_mutex_unlock(&lock);
	}
	return f;
}

int fclose(FILE *f)
{
	int (*real)(FILE *) = (int (*)(FILE *))dlsym(RTLD_NEXT, "fclose");
	int delayed = 0;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < sizeof(slow) / sizeof(slow[0]); i++)
		if (slow[i] == f) {
			slow[i] = NULL;
			delayed = 1;
		}
	pthread_mutex_unlock(&lock);
	if (delayed)
		usleep(300000);
	return real(f);
}
