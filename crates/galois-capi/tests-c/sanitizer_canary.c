/*
 * Negative controls for the sanitizer build: each mode commits one error that
 * the sanitizers must report, so that a build where they silently do nothing
 * (missing flags, a runtime not linked) fails its tests instead of passing.
 *   heap       reads one byte past a malloc'd buffer (AddressSanitizer)
 *   overflow   overflows a signed int (UndefinedBehaviorSanitizer)
 * usage: sanitizer_canary heap|overflow
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "heap")) {
        volatile size_t n = 16;
        unsigned char *p = malloc(n);
        if (!p) return 2;
        memset(p, 1, n);
        int x = p[n]; /* one past the end */
        free(p);
        printf("read %d: not detected\n", x);
        return 0;
    }
    if (!strcmp(mode, "overflow")) {
        volatile int a = INT_MAX;
        int b = a + 1; /* signed overflow */
        printf("%d: not detected\n", b);
        return 0;
    }
    fprintf(stderr, "usage: sanitizer_canary heap|overflow\n");
    return 2;
}
