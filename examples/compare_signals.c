// SPDX-License-Identifier: BSD-3-Clause
#include "compare_signals.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static const char kStopMessage[] = "ssimulacra2cmp-compare-stop";

static GMutex lock;
// Guarded by `lock`: where a stop goes (during the run), whether the run
// has ended, and whether a stop was sent.
static GstBus* target = NULL;
static gboolean ended = FALSE;
static gboolean stopping = FALSE;

// Ends the process as the signal's default action would, so that the
// shell sees it killed by the signal.
static void DieBy(int sig) {
  signal(sig, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  pthread_sigmask(SIG_UNBLOCK, &one, NULL);
  raise(sig);
  _exit(128 + sig);  // not reached
}

static gpointer WaitForSignals(gpointer data) {
  const sigset_t* set = data;
  for (;;) {
    int sig = 0;
    if (sigwait(set, &sig) != 0) continue;
    g_mutex_lock(&lock);
    const gboolean first = target != NULL && !stopping;
    // After the run only its text is left to print: that goes on.
    const gboolean ignore = ended;
    const gboolean again = stopping;
    if (first) {
      stopping = TRUE;
      gst_bus_post(target, gst_message_new_application(
                               NULL, gst_structure_new(kStopMessage, "signal", G_TYPE_INT,
                                                       sig, NULL)));
    }
    g_mutex_unlock(&lock);
    if (first || ignore) continue;
    if (again) {
      static const char kAgain[] =
          "\nssimulacra2cmp-compare: stopped again: ending without the summary\n";
      (void)!write(STDERR_FILENO, kAgain, sizeof kAgain - 1);
    }
    DieBy(sig);
  }
  return NULL;
}

void WatchStopSignals(void) {
  static sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, NULL);
  g_thread_unref(g_thread_new("stop-signals", WaitForSignals, &set));
}

void SetStopTarget(GstBus* bus) {
  g_mutex_lock(&lock);
  if (bus != NULL) {
    target = gst_object_ref(bus);
  } else if (target != NULL) {
    ended = TRUE;
    gst_object_unref(target);
    target = NULL;
  }
  g_mutex_unlock(&lock);
}

int StopSignalOf(GstMessage* msg) {
  const GstStructure* s = gst_message_get_structure(msg);
  int sig = 0;
  if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_APPLICATION && s != NULL &&
      gst_structure_has_name(s, kStopMessage)) {
    gst_structure_get_int(s, "signal", &sig);
  }
  return sig;
}
