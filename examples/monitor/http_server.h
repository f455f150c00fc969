// SPDX-License-Identifier: BSD-3-Clause
// The monitor's HTTP endpoints, on civetweb (the server prometheus-cpp's
// exposer is built on):
//   /metrics  the registry in Prometheus's text format (exposition.h)
//   /healthz  200 while the process serves requests
//   /readyz   200 once every channel of this replica has started (its
//             pipeline reached PLAYING at least once), else 503 naming
//             the channels not started
// Each answers HEAD as GET, without the body.
#ifndef S2C_MONITOR_HTTP_SERVER_H_
#define S2C_MONITOR_HTTP_SERVER_H_

#include <CivetServer.h>

#include <memory>
#include <mutex>
#include <string>

#include "monitor_metrics.h"

namespace s2c::monitor {

class HttpServer {
 public:
  // Listens on "HOST:PORT" (port 0: any free port). On failure returns null
  // and says why in `error`.
  static std::unique_ptr<HttpServer> Start(const std::string& listen, const Metrics* metrics,
                                           std::string* error);
  ~HttpServer();

  int port();
  // Set from the main loop as channels start and the configuration changes:
  // whether every channel has started, and if not, which have not (and
  // why).
  void SetReadiness(bool ready, const std::string& waiting);

 private:
  class Handler : public CivetHandler {
   public:
    explicit Handler(HttpServer* server, const char* path) : server_(server), path_(path) {}
    bool handleGet(CivetServer* server, struct mg_connection* conn) override;
    bool handleHead(CivetServer* server, struct mg_connection* conn) override;

   private:
    HttpServer* server_;
    std::string path_;
  };

  explicit HttpServer(const Metrics* metrics);
  void Reply(struct mg_connection* conn, const std::string& path, bool head);

  const Metrics* metrics_;
  std::mutex readiness_lock_;  // the main loop writes, the server's threads read
  bool ready_ = false;
  std::string waiting_ = "(the configuration is loading)";
  Handler metrics_handler_{this, "/metrics"};
  Handler health_handler_{this, "/healthz"};
  Handler ready_handler_{this, "/readyz"};
  std::unique_ptr<CivetServer> server_;
};

}  // namespace s2c::monitor

#endif  // S2C_MONITOR_HTTP_SERVER_H_
