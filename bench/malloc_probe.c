// malloc_probe.c: what a process's resident memory is made of, every 5 s (docs/memory.md).
// Preloaded into one process, a thread appends to $MSTAT_OUT a line
//   <seconds> rss=<KB> anon=<KB> arena=<KB> mmap=<KB> inuse=<KB> free=<KB> keep=<KB> narenas=<N>
// rss and anon from /proc/self; the rest from glibc's mallinfo2() (summed over every arena):
// arena = bytes the arenas took from the system, inuse = live allocations, free = freed bytes the
// arenas keep, mmap = large blocks mapped on their own; narenas from malloc_info(). It removes
// LD_PRELOAD from its environment, so the processes it starts (adapters, servers) run without it.
//
//   gcc -O2 -shared -fPIC -o /tmp/malloc_probe.so bench/malloc_probe.c -lpthread
//   MSTAT_OUT=/tmp/m.txt LD_PRELOAD=/tmp/malloc_probe.so build/crosscheck fuzz --time 5m ...
// (Through bench/fuzz_memory.sh, preload it in a wrapper script named crosscheck that execs the
// binary, so that the script's own shell does not take the probe.)
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char info[1 << 20];  // malloc_info's XML, to count the arenas

static long status_kb(const char* field) {
  FILE* f = fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  long kb = 0;
  size_t n = strlen(field);
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, field, n) == 0) kb = atol(line + n);
  }
  fclose(f);
  return kb;
}

static void* sample(void* path) {
  FILE* out = fopen((const char*)path, "w");
  if (!out) return NULL;
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    struct mallinfo2 mi = mallinfo2();
    int arenas = 0;
    memset(info, 0, sizeof info);
    FILE* m = fmemopen(info, sizeof info - 1, "w");
    if (m) {
      malloc_info(0, m);
      fclose(m);
      for (char* p = info; (p = strstr(p, "<heap nr=")) != NULL; ++p) ++arenas;
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    fprintf(out, "%ld rss=%ld anon=%ld arena=%zu mmap=%zu inuse=%zu free=%zu keep=%zu narenas=%d\n",
            (long)(now.tv_sec - start.tv_sec), status_kb("VmRSS:"), status_kb("RssAnon:"), mi.arena / 1024,
            mi.hblkhd / 1024, mi.uordblks / 1024, mi.fordblks / 1024, mi.keepcost / 1024, arenas);
    fflush(out);
    sleep(5);
  }
  return NULL;
}

__attribute__((constructor)) static void start_probe(void) {
  const char* path = getenv("MSTAT_OUT");
  if (!path) return;
  static char kept[4096];
  snprintf(kept, sizeof kept, "%s", path);
  unsetenv("LD_PRELOAD");
  pthread_t thread;
  if (pthread_create(&thread, NULL, sample, kept) == 0) pthread_detach(thread);
}
