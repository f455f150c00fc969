// SPDX-License-Identifier: BSD-3-Clause
// ssimulacra2cmp-monitor: scores many live channels in one process, each a
// pipeline of its own, and serves Prometheus metrics (docs/monitor.md).
//
//   ssimulacra2cmp-monitor --config channels.conf --listen 0.0.0.0:9464 [--shard 2/4]
//
// SIGHUP re-reads the configuration; SIGINT and SIGTERM stop the channels
// and exit.
#include <glib-unix.h>
#include <gst/gst.h>

#include <csignal>
#include <cstdio>
#include <memory>
#include <string>

#include "event_log.h"
#include "http_server.h"
#include "monitor_metrics.h"
#include "service.h"
#include "shard.h"

namespace {

using s2c::monitor::Details;
using s2c::monitor::LogEvent;

struct Loop {
  s2c::monitor::Service* service;
  s2c::monitor::HttpServer* http;
};

gboolean OnHangUp(gpointer data) {
  auto* loop = static_cast<Loop*>(data);
  std::string error;
  if (!loop->service->Load(&error)) {
    LogEvent("", "config-error", Details().Add("error", error).Add("kept", "previous channels"));
  }
  return G_SOURCE_CONTINUE;
}

gboolean OnStop(gpointer main_loop) {
  g_main_loop_quit(static_cast<GMainLoop*>(main_loop));
  return G_SOURCE_CONTINUE;
}

gboolean OnReadinessTick(gpointer data) {
  auto* loop = static_cast<Loop*>(data);
  std::string waiting;
  const bool ready = loop->service->ready(&waiting);
  loop->http->SetReadiness(ready, waiting);
  return G_SOURCE_CONTINUE;
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "ssimulacra2cmp-monitor: %s\n", message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  gchar* config_path = nullptr;
  gchar* listen = nullptr;
  gchar* shard_text = nullptr;
  const GOptionEntry entries[] = {
      {"config", 'c', 0, G_OPTION_ARG_FILENAME, &config_path,
       "The channels: a key file of [channel NAME] groups", "FILE"},
      {"listen", 'l', 0, G_OPTION_ARG_STRING, &listen,
       "Where to serve /metrics, /healthz and /readyz (port 0: any free port)", "HOST:PORT"},
      {"shard", 's', 0, G_OPTION_ARG_STRING, &shard_text,
       "This replica's channels: I/N (replica I of N, from 0), or auto (I from the pod name, "
       "N from SSIMULACRA2CMP_SHARDS); default 0/1",
       "I/N"},
      {nullptr, 0, 0, G_OPTION_ARG_NONE, nullptr, nullptr, nullptr}};
  GOptionContext* options = g_option_context_new("- score live channels, serve Prometheus metrics");
  g_option_context_add_main_entries(options, entries, nullptr);
  g_option_context_add_group(options, gst_init_get_option_group());
  GError* gerror = nullptr;
  const bool parsed = g_option_context_parse(options, &argc, &argv, &gerror);
  g_option_context_free(options);
  if (!parsed) {
    const std::string message = gerror->message;
    g_error_free(gerror);
    return Fail(message);
  }
  if (config_path == nullptr || listen == nullptr) return Fail("--config and --listen are required");
  s2c::monitor::Shard shard;
  std::string error;
  if (shard_text != nullptr && !s2c::monitor::ParseShard(shard_text, &shard, &error)) {
    return Fail(error);
  }

  // SIGINT and SIGTERM are caught from here on, before the monitor says it
  // listens: one that arrives while the channels load is handled once the
  // loop runs, and the monitor then stops as it does later.
  GMainLoop* main_loop = g_main_loop_new(nullptr, FALSE);
  const guint stop_sources[] = {g_unix_signal_add(SIGINT, OnStop, main_loop),
                                g_unix_signal_add(SIGTERM, OnStop, main_loop)};
  s2c::monitor::Metrics metrics;
  std::unique_ptr<s2c::monitor::HttpServer> http =
      s2c::monitor::HttpServer::Start(listen, &metrics, &error);
  int status = 0;
  if (http == nullptr) {
    status = Fail(error);
  } else {
    LogEvent("", "listening", Details().Add("address", listen).Add("port", static_cast<uint64_t>(http->port())));
    s2c::monitor::Service service(config_path, shard, &metrics);
    if (!service.Load(&error)) {
      status = Fail(error);
    } else {
      Loop loop{&service, http.get()};
      const guint sources[] = {g_unix_signal_add(SIGHUP, OnHangUp, &loop),
                               g_timeout_add(100, OnReadinessTick, &loop)};
      g_main_loop_run(main_loop);
      for (guint source : sources) g_source_remove(source);
      LogEvent("", "exiting");
    }
  }
  // Still caught while the channels stop: a second signal then changes
  // nothing, where the default action would end the process mid-way.
  for (guint source : stop_sources) g_source_remove(source);
  g_main_loop_unref(main_loop);
  g_free(config_path);
  g_free(listen);
  g_free(shard_text);
  return status;
}
