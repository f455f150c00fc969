// SPDX-License-Identifier: BSD-3-Clause
#include "http_server.h"

#include <civetweb.h>

#include <vector>

#include "exposition.h"

namespace s2c_monitor {
namespace {

void Send(struct mg_connection* conn, int status, const char* content_type,
          const std::string& body) {
  mg_printf(conn,
            "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
            "Connection: close\r\n\r\n",
            status, mg_get_response_code_text(conn, status), content_type, body.size());
  mg_write(conn, body.data(), body.size());
}

}  // namespace

std::unique_ptr<HttpServer> HttpServer::Start(const std::string& listen, const Metrics* metrics,
                                              std::string* error) {
  std::unique_ptr<HttpServer> server(new HttpServer(metrics));
  const std::vector<std::string> options = {"listening_ports", listen, "num_threads", "4"};
  try {
    server->server_ = std::make_unique<CivetServer>(options);
  } catch (const CivetException& e) {
    *error = "cannot listen on " + listen + ": " + e.what();
    return nullptr;
  }
  server->server_->addHandler("/metrics", server->metrics_handler_);
  server->server_->addHandler("/healthz", server->health_handler_);
  server->server_->addHandler("/readyz", server->ready_handler_);
  return server;
}

HttpServer::HttpServer(const Metrics* metrics) : metrics_(metrics) {}

HttpServer::~HttpServer() {
  // Stop the server (and its threads) before the handlers go.
  if (server_ != nullptr) server_->close();
}

int HttpServer::port() {
  const std::vector<int> ports = server_->getListeningPorts();
  return ports.empty() ? 0 : ports[0];
}

bool HttpServer::Handler::handleGet(CivetServer*, struct mg_connection* conn) {
  server_->Reply(conn, path_);
  return true;
}

void HttpServer::Reply(struct mg_connection* conn, const std::string& path) {
  if (path == "/metrics") {
    Send(conn, 200, "text/plain; version=0.0.4; charset=utf-8",
         Exposition(metrics_->registry().Collect()));
  } else if (path == "/healthz") {
    Send(conn, 200, "text/plain", "ok\n");
  } else if (ready_.load()) {
    Send(conn, 200, "text/plain", "ready\n");
  } else {
    Send(conn, 503, "text/plain", "channels starting\n");
  }
}

}  // namespace s2c_monitor
