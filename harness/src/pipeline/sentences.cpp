#include "pipeline/sentences.hpp"

namespace cugrade {

void append_sentence(std::string& message, std::string_view sentence) {
  if (!message.empty()) message += sentence_separator;
  message += sentence;
}

void erase_sentence(std::string& message, std::size_t from, std::size_t to) {
  const std::size_t gap = sentence_separator.size();
  if (from >= gap && message.compare(from - gap, gap, sentence_separator) == 0)
    from -= gap;
  else if (message.compare(to, gap, sentence_separator) == 0)
    to += gap;
  message.erase(from, to - from);
}

bool replace_sentence(std::string& message, std::string_view sentence, std::string_view replacement) {
  const auto at = message.find(sentence);
  if (at == std::string::npos) return false;
  message.replace(at, sentence.size(), replacement);
  return true;
}

}  // namespace cugrade
