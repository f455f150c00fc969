// SPDX-License-Identifier: BSD-3-Clause
#include "http_server.h"

#include <civetweb.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "exposition.h"

namespace s2c::monitor {
namespace {

// The response; to HEAD the same without the body.
void Send(struct mg_connection* conn, int status, const char* content_type,
          const std::string& body, bool head) {
  mg_printf(conn,
            "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
            "Connection: close\r\n\r\n",
            status, mg_get_response_code_text(conn, status), content_type, body.size());
  if (!head) mg_write(conn, body.data(), body.size());
}

// Why `listen` ("HOST:PORT", "[IPV6]:PORT" or "PORT") cannot be bound, in
// the system's words ("Address already in use"), tried as civetweb binds
// it; "" when it can, or is not a plain address. civetweb itself only says
// that it could not start.
std::string WhyNotBindable(const std::string& listen) {
  const size_t colon = listen.rfind(':');
  std::string host = colon == std::string::npos ? "" : listen.substr(0, colon);
  const std::string port = listen.substr(colon == std::string::npos ? 0 : colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  addrinfo hints = {};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* address = nullptr;
  if (getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &address) != 0) {
    return "";
  }
  std::string why;
  const int fd = socket(address->ai_family, address->ai_socktype | SOCK_CLOEXEC, address->ai_protocol);
  const int on = 1;
  if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0 ||
      bind(fd, address->ai_addr, address->ai_addrlen) != 0) {
    why = std::strerror(errno);
  }
  if (fd >= 0) close(fd);
  freeaddrinfo(address);
  return why;
}

}  // namespace

std::unique_ptr<HttpServer> HttpServer::Start(const std::string& listen, const Metrics* metrics,
                                              std::string* error) {
  std::unique_ptr<HttpServer> server(new HttpServer(metrics));
  const std::vector<std::string> options = {"listening_ports", listen, "num_threads", "4"};
  try {
    server->server_ = std::make_unique<CivetServer>(options);
  } catch (const CivetException& e) {
    const std::string why = WhyNotBindable(listen);
    *error = "cannot listen on " + listen + ": " + (why.empty() ? e.what() : why);
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

void HttpServer::SetReadiness(bool ready, const std::string& waiting) {
  std::lock_guard<std::mutex> lock(readiness_lock_);
  ready_ = ready;
  waiting_ = waiting;
}

bool HttpServer::Handler::handleGet(CivetServer*, struct mg_connection* conn) {
  server_->Reply(conn, path_, false);
  return true;
}

bool HttpServer::Handler::handleHead(CivetServer*, struct mg_connection* conn) {
  server_->Reply(conn, path_, true);
  return true;
}

void HttpServer::Reply(struct mg_connection* conn, const std::string& path, bool head) {
  if (path == "/metrics") {
    Send(conn, 200, "text/plain; version=0.0.4; charset=utf-8",
         Exposition(metrics_->registry().Collect()), head);
    return;
  }
  if (path == "/healthz") {
    Send(conn, 200, "text/plain", "ok\n", head);
    return;
  }
  std::unique_lock<std::mutex> lock(readiness_lock_);
  const bool ready = ready_;
  const std::string body = ready ? "ready\n" : "channels not started: " + waiting_ + "\n";
  lock.unlock();
  Send(conn, ready ? 200 : 503, "text/plain", body, head);
}

}  // namespace s2c::monitor
