#include "run/runner_words.hpp"

#include <csignal>
#include <cstring>

namespace cugrade {

std::string cuda_error_message(const Event& event) {
  if (!event.failed_call.empty() && !event.error.empty()) return event.error;
  return "CUDA error in " + event.call + ": " + event.error +
         (event.kernel.empty() ? "" : " (last kernel launched: " + event.kernel + ")");
}

std::string describe_signal(int signal) {
  const char* name = nullptr;
  switch (signal) {
    case SIGSEGV: name = "SIGSEGV (segmentation fault: a bad host pointer)"; break;
    case SIGABRT: name = "SIGABRT (abort)"; break;
    case SIGFPE: name = "SIGFPE (arithmetic error, e.g. integer division by zero)"; break;
    case SIGBUS: name = "SIGBUS (bus error)"; break;
    case SIGILL: name = "SIGILL (illegal instruction)"; break;
    case SIGKILL: name = "SIGKILL (killed)"; break;
    default: break;
  }
  return name ? std::string(name) : "signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
}

std::string with_memory_refusal(std::string message, const std::string& memory_refused) {
  if (!memory_refused.empty()) message += (message.empty() ? "" : " — ") + memory_refused;
  return message;
}

}  // namespace cugrade
