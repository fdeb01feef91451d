#include "prepass.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <utility>
#include <vector>

#include "prepass_launch.hpp"
#include "prepass_rmw.hpp"
#include "prepass_shared.hpp"
#include "prepass_spin.hpp"
#include "prepass_tokens.hpp"

namespace cugrade::cpu {
namespace {

// The kernel expression as a C string literal, whitespace collapsed (for messages).
std::string kernel_name(const std::string& kernel) {
  std::string out = "\"";
  bool space = false;
  for (char c : kernel) {
    if (c == '\\' && out.size() == 1) continue;
    if (std::isspace(static_cast<unsigned char>(c)) || c == '\\') {
      space = out.size() > 1;
      continue;
    }
    if (space) out += ' ';
    space = false;
    if (c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

// What one pre-pass shares with the pre-passes of the headers it inlines.
struct IncludeState {
  const HeaderReader* read_header = nullptr;
  int cuda_arch = 900;  ///< what __CUDA_ARCH__ reads in device code
  std::vector<std::filesystem::path> once;  ///< `#pragma once` headers inlined so far
  int depth = 0;
};

// The quoted name of `#include "name"`, or nullopt for any other directive.
std::optional<std::string> quoted_include(std::string_view directive) {
  std::size_t k = 1;
  auto skip_blanks = [&] {
    while (k < directive.size() && (directive[k] == ' ' || directive[k] == '\t')) ++k;
  };
  skip_blanks();
  if (directive.substr(k, 7) != "include") return std::nullopt;
  k += 7;
  skip_blanks();
  if (k >= directive.size() || directive[k] != '"') return std::nullopt;
  const std::size_t end = directive.find('"', k + 1);
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(directive.substr(k + 1, end - k - 1));
}

// Rewrites one file. Works on the code tokens (comments removed) so that a comment between
// `>>>` and `(` or inside the arguments changes nothing.
class Rewriter {
 public:
  Rewriter(std::string_view source, const std::string& file, IncludeState& includes)
      : s_(source), file_(file), tokens_(source), includes_(includes) {}

  Result<std::string> run() {
    // Why drop the byte-order mark: after the #line the rewriter puts first, g++ would read it
    // as stray bytes (it only skips one at the very start of a file).
    if (s_.starts_with(utf8_bom)) edits_.push_back(Edit{0, utf8_bom.size(), ""});
    std::vector<bool> scope_stack;  // true: a namespace-like brace ({ of namespace / extern "C")
    note_device_bodies();
    for (std::size_t k = 0; k < tokens_.size(); ++k) {
      const Token& t = tokens_[k];
      if (tokens_.is(k, "__CUDA_ARCH__") && in_device_body(k)) {
        read_cuda_arch(k);
        continue;
      }
      if (t.directive == 0 && tokens_.is(k, "__global__")) note_kernel_body(k);
      if (std::ranges::find(kernel_bodies_, k) != kernel_bodies_.end())
        edits_.push_back(Edit{t.end, t.end, " ::cugrade_cpu::kernel_signature(__PRETTY_FUNCTION__);"});
      if (t.directive == 0 && tokens_.is(k, "{")) scope_stack.push_back(opens_namespace(k));
      if (t.directive == 0 && tokens_.is(k, "}") && !scope_stack.empty()) scope_stack.pop_back();
      const bool file_scope = t.directive == 0 && std::all_of(scope_stack.begin(), scope_stack.end(),
                                                               [](bool b) { return b; });
      if (t.kind == TokenKind::opaque_directive && includes_.read_header) {
        auto inlined = inline_header(k);
        if (!inlined) return std::unexpected(inlined.error());
        continue;
      }
      if (is_pragma_once(k)) {
        edits_.push_back(Edit{t.begin, tokens_[k + 2].end, ""});
        k += 2;
        continue;
      }
      if (tokens_.is(k, "__noinline__")) {  // no shim macro can serve: see cugrade_cpu/qualifiers.hpp
        edits_.push_back(Edit{t.begin, t.end, "__attribute__((noinline))"});
        continue;
      }
      if (tokens_.is_triple(k, '<')) {
        auto site = parse_launch(tokens_, k, file_);
        if (!site) return std::unexpected(site.error());
        rewrite_launch(*site);
        k = site->paren_close;
        continue;
      }
      if (tokens_.is(k, "extern") && is_extern_shared(tokens_, k)) {
        auto next = rewrite_extern_shared(tokens_, k, file_scope, file_, edits_);
        if (!next) return std::unexpected(next.error());
        k = *next;
        continue;
      }
      if (tokens_.is(k, "__shared__")) {
        drop_storage_class(k);
        k = annotate_static_shared(tokens_, k, file_scope, file_, edits_);
      }
    }
    add_update_wrappers();
    return assemble();
  }

 private:
  bool opens_namespace(std::size_t k) const {
    if (k == 0) return false;
    std::size_t j = k - 1;
    if (tokens_[j].kind == TokenKind::literal && j > 0 && tokens_.is(j - 1, "extern")) return true;
    while (j > 0 && (tokens_[j].kind == TokenKind::identifier || tokens_.is(j, ":"))) {
      if (tokens_.is(j, "namespace")) return true;
      --j;
    }
    return tokens_.is(j, "namespace");
  }

  // The `{` that opens the body of the kernel whose `__global__` is token k (none for a
  // declaration): the kernel's first statement will name it, template arguments resolved, for
  // the executor's messages (kernel_signature in cugrade_cpu/launch.hpp).
  void note_kernel_body(std::size_t k) {
    int depth = 0;
    for (std::size_t j = k + 1; j < tokens_.size() && tokens_[j].directive == 0; ++j) {
      std::string_view t = tokens_.text(j);
      if (t == "(" || t == "[") ++depth;
      if (t == ")" || t == "]") --depth;
      if (depth == 0 && t == ";") return;
      if (depth == 0 && t == "{") {
        kernel_bodies_.push_back(j);
        return;
      }
    }
  }

  // The bodies of the functions nvcc compiles for the device alone (`__global__`, `__device__`
  // without `__host__`, a `__device__` lambda): their braces' token indices. Why: nvcc's device
  // pass defines __CUDA_ARCH__ there, and the one host pass here does not (read_cuda_arch).
  void note_device_bodies() {
    for (std::size_t k = 0; k < tokens_.size(); ++k) {
      if (tokens_[k].directive != 0 || !(tokens_.is(k, "__global__") || tokens_.is(k, "__device__"))) continue;
      bool host = false;
      for (std::size_t j = k; j > 0 && tokens_[j - 1].directive == 0; --j) {
        if (tokens_.is(j - 1, ";") || tokens_.is(j - 1, "{") || tokens_.is(j - 1, "}")) break;
        host = host || tokens_.is(j - 1, "__host__");
      }
      int depth = 0;
      for (std::size_t j = k + 1; j < tokens_.size(); ++j) {
        if (tokens_[j].directive != 0) continue;
        const std::string_view t = tokens_.text(j);
        host = host || t == "__host__";
        if (t == "(" || t == "[") ++depth;
        if (t == ")" || t == "]") --depth;
        if (depth == 0 && (t == ";" || t == "=")) break;  // a declaration, a __device__ variable
        if (depth == 0 && t == "{") {
          if (const auto close = closing_brace(j); close && !host) device_bodies_.push_back({j, *close});
          break;
        }
      }
    }
  }

  // The `}` that closes the `{` at `open`, counting the braces of code and not of directives
  // (a body may hold #if lines).
  std::optional<std::size_t> closing_brace(std::size_t open) const {
    int depth = 0;
    for (std::size_t k = open; k < tokens_.size(); ++k) {
      if (tokens_[k].directive != 0) continue;
      if (tokens_.is(k, "{")) ++depth;
      if (tokens_.is(k, "}") && --depth == 0) return k;
    }
    return std::nullopt;
  }

  bool in_device_body(std::size_t k) const {
    return std::ranges::any_of(device_bodies_, [k](const auto& body) { return body.first < k && k < body.second; });
  }

  // __CUDA_ARCH__ in device code, as nvcc's device pass for the build's architecture reads it:
  // `#ifdef` true, `#ifndef` false, `defined(__CUDA_ARCH__)` 1, the name itself the number (900
  // for sm_90), so that `#if __CUDA_ARCH__ >= 700` keeps the code a GPU runs.
  void read_cuda_arch(std::size_t k) {
    const Token& t = tokens_[k];
    const std::string arch = std::to_string(includes_.cuda_arch);
    if (t.directive != 0 && k >= 2 && tokens_.is(k - 2, "#") && tokens_.same_directive(k - 2, k)) {
      if (tokens_.is(k - 1, "ifdef") || tokens_.is(k - 1, "ifndef")) {
        const std::string value = tokens_.is(k - 1, "ifdef") ? "1" : "0";
        edits_.push_back(Edit{tokens_[k - 1].begin, t.end, "if " + value + " /* " + arch + " */"});
        return;
      }
    }
    if (t.directive != 0 && k >= 1 && tokens_.is(k - 1, "defined") && tokens_.same_directive(k - 1, k)) {
      edits_.push_back(Edit{tokens_[k - 1].begin, t.end, "1"});
      return;
    }
    if (t.directive != 0 && k >= 2 && tokens_.is(k - 1, "(") && tokens_.is(k - 2, "defined") &&
        tokens_.is(k + 1, ")") && tokens_.same_directive(k - 2, k + 1)) {
      edits_.push_back(Edit{tokens_[k - 2].begin, tokens_[k + 1].end, "1"});
      return;
    }
    edits_.push_back(Edit{t.begin, t.end, arch});
  }

  // `static __shared__` (or `__shared__ static`): the shim's __shared__ is already `static
  // thread_local`, and `static static` does not compile, so the student's `static` goes.
  void drop_storage_class(std::size_t k) {
    for (std::size_t j : {k - 1, k + 1})
      if (k > 0 && tokens_.is(j, "static") && tokens_.same_directive(j, k))
        edits_.push_back(Edit{tokens_[j].begin, tokens_[j].end, ""});
  }

  bool is_pragma_once(std::size_t k) const {
    return tokens_[k].directive != 0 && tokens_.is(k, "#") && tokens_.is(k + 1, "pragma") &&
           tokens_.is(k + 2, "once") && tokens_.same_directive(k, k + 2) &&
           (k + 3 >= tokens_.size() || !tokens_.same_directive(k, k + 3));
  }

 public:
  /// Whether this file has `#pragma once` (it is then removed, and its includer guards it).
  bool has_pragma_once() const {
    for (std::size_t k = 0; k < tokens_.size(); ++k)
      if (is_pragma_once(k)) return true;
    return false;
  }

 private:
  // `#include "name"` of a file next to this one: replaced by that file, pre-passed, between
  // #line directives; the line after it keeps its number. Why inline rather than pre-pass the
  // header into a file of its own: the includer's copy is compiled elsewhere (a build folder),
  // where a quoted include would find the original header first, with its launches unrewritten.
  Result<bool> inline_header(std::size_t k) {
    const Token& t = tokens_[k];
    const auto name = quoted_include(t.text(s_));
    if (!name) return false;
    const std::filesystem::path path = (std::filesystem::path(file_).parent_path() / *name).lexically_normal();
    const std::optional<std::string> text = (*includes_.read_header)(path);
    if (!text) return false;  // found elsewhere (-I) by the compiler, or missing: it says so
    if (std::ranges::find(includes_.once, path) != includes_.once.end()) {
      edits_.push_back(Edit{t.begin, t.end, ""});
      return true;
    }
    if (includes_.depth >= 32)
      return fail(file_ + ":" + std::to_string(t.line) + ": #include \"" + *name + "\" nests more than 32 "
                  "levels deep (does a header include itself?).");
    ++includes_.depth;
    Rewriter header(*text, path.string(), includes_);
    auto converted = header.run();
    --includes_.depth;
    if (!converted) return std::unexpected(converted.error());
    std::string inlined = *converted;
    if (!inlined.ends_with('\n')) inlined += '\n';
    if (header.has_pragma_once()) {
      includes_.once.push_back(path);
      const std::string guard = "CUGRADE_ONCE_" + std::to_string(std::hash<std::string>{}(path.string()));
      inlined = "#ifndef " + guard + "\n#define " + guard + "\n" + inlined + "#endif\n";
    }
    edits_.push_back(Edit{t.begin, t.end, inlined + "#line " + std::to_string(t.line + 1) + " " + quote_path(file_)});
    return true;
  }

  // `k<<<config>>>(args)` becomes a call of ::cugrade_cpu::launch (cugrade_cpu/launch.hpp) that
  // keeps the launch's lines, so later code stays on its line numbers.
  void rewrite_launch(const LaunchSite& site) {
    const std::size_t k = site.open;
    const bool in_dir = tokens_[k].directive != 0;
    const std::string kernel = tokens_.clean(site.kernel.begin, site.kernel.end, in_dir);
    const std::string config = tokens_.clean(tokens_[k + 2].end, tokens_[site.close].begin, in_dir);
    const std::string args = tokens_.clean(tokens_[site.paren].end, tokens_[site.paren_close].begin, in_dir);
    // A launch written with template arguments names the kernel through the enclosing function's
    // template parameters, resolved when it runs (cugrade_cpu/launch.hpp).
    const std::string name = kernel.find('<') == std::string::npos
                                 ? kernel_name(kernel)
                                 : "::cugrade_cpu::kernel_name(" + kernel_name(kernel) + ", __PRETTY_FUNCTION__)";
    std::string text = "::cugrade_cpu::launch(::cugrade_cpu::launch_config(" + config + "), " +
                       name + ", [&](auto&&... cugrade_a) { " + kernel +
                       "(static_cast<decltype(cugrade_a)&&>(cugrade_a)...); }";
    if (args.find_first_not_of(" \t\r\n\\") != std::string::npos) text += ", " + args;
    text += ")";
    const std::size_t begin = site.kernel.begin, end = site.call.end;
    auto newlines = [](std::string_view v) { return std::count(v.begin(), v.end(), '\n'); };
    for (auto missing = newlines(s_.substr(begin, end - begin)) - newlines(text); missing > 0; --missing)
      text += in_dir ? "\\\n" : "\n";
    edits_.push_back(Edit{begin, end, std::move(text)});
  }

  // Non-atomic updates in device code go through ::cugrade_cpu::rmw (prepass_rmw.hpp), which
  // watches those of global memory for races between threads, and spin-waits yield. A wrapper
  // that would cut into another rewrite's text (a __CUDA_ARCH__ inside the lvalue, say) is left out.
  void add_update_wrappers() {
    std::vector<Edit> wrappers;
    wrap_global_updates(tokens_, device_bodies_, wrappers);
    const auto cuts = [this](std::size_t at) {
      return std::ranges::any_of(edits_, [at](const Edit& e) { return e.begin <= at && at < e.end; });
    };
    for (std::size_t i = 0; i + 1 < wrappers.size(); i += 2)
      if (!cuts(wrappers[i].begin) && !cuts(wrappers[i + 1].begin)) {
        edits_.push_back(std::move(wrappers[i]));
        edits_.push_back(std::move(wrappers[i + 1]));
      }
    // A spin-wait's empty body yields, so that the thread it waits for runs (prepass_spin.hpp).
    // Its edits go first among those at the same place: a body's `{` opens before a wrapper of
    // the statement it starts with, and its `}` closes before the next statement's.
    std::vector<std::vector<Edit>> yields;
    yield_in_spin_waits(tokens_, device_bodies_, yields);
    std::vector<Edit> first;
    for (auto& group : yields)
      if (std::ranges::none_of(group, [&](const Edit& e) { return cuts(e.begin) || (e.end > e.begin && cuts(e.end - 1)); }))
        for (Edit& e : group) first.push_back(std::move(e));
    edits_.insert(edits_.begin(), std::make_move_iterator(first.begin()), std::make_move_iterator(first.end()));
    // The wrappers open before tokens other rewrites came to earlier: back into source order
    // (stable, so insertions at one place keep the order they were made in).
    std::ranges::stable_sort(edits_, {}, &Edit::begin);
  }

  std::string assemble() const {
    std::string out = "#line 1 " + quote_path(file_) + "\n";
    std::size_t pos = 0;
    for (const Edit& e : edits_) {
      out.append(s_.substr(pos, e.begin - pos));
      out += e.text;
      pos = e.end;
    }
    out.append(s_.substr(pos));
    return out;
  }

  std::string_view s_;
  std::string file_;
  TokenView tokens_;
  IncludeState& includes_;
  std::vector<Edit> edits_;
  std::vector<std::size_t> kernel_bodies_;  ///< tokens `{` that open a kernel's body
  std::vector<std::pair<std::size_t, std::size_t>> device_bodies_;  ///< device-only functions' { and }
};

}  // namespace

int cuda_arch_number(std::string_view arch) {
  const auto digits = arch.find_first_of("0123456789");
  if (!(arch.starts_with("sm_") || arch.starts_with("compute_")) || digits == std::string_view::npos) return 900;
  int number = 0;
  for (std::size_t k = digits; k < arch.size() && std::isdigit(static_cast<unsigned char>(arch[k])); ++k)
    number = number * 10 + (arch[k] - '0');
  return number >= 10 && number < 1000 ? number * 10 : 900;
}

Result<std::string> cuda_to_cpp(std::string_view source, const std::string& file_name,
                                const HeaderReader& read_header, int cuda_arch) {
  IncludeState includes;
  includes.cuda_arch = cuda_arch;
  if (read_header) includes.read_header = &read_header;
  return Rewriter(source, file_name, includes).run();
}

HeaderReader read_headers_from_disk() {
  return [](const std::filesystem::path& path) -> std::optional<std::string> {
    if (!std::filesystem::is_regular_file(path)) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
}

}  // namespace cugrade::cpu
