// See stop_signal.hpp.
#include "app/stop_signal.hpp"

#include <csignal>

namespace murmur {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;
struct sigaction g_old_int {}, g_old_term {};

extern "C" void noteStopSignal(int sig) { g_stop_signal = sig; }

}  // namespace

StopSignal::StopSignal() {
    g_stop_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = noteStopSignal;
    sa.sa_flags = SA_RESTART;  // a write or read under way goes on; the run polls the flag
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, nullptr, &g_old_int);
    ::sigaction(SIGTERM, nullptr, &g_old_term);
    if (g_old_int.sa_handler != SIG_IGN) ::sigaction(SIGINT, &sa, nullptr);
    if (g_old_term.sa_handler != SIG_IGN) ::sigaction(SIGTERM, &sa, nullptr);
}

StopSignal::~StopSignal() {
    ::sigaction(SIGINT, &g_old_int, nullptr);
    ::sigaction(SIGTERM, &g_old_term, nullptr);
}

bool StopSignal::requested() const { return g_stop_signal != 0; }
int StopSignal::signal() const { return int(g_stop_signal); }

}  // namespace murmur
