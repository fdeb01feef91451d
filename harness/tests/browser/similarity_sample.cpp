// Writes the similarity page the browser test renders: matmul's two known-good solutions, its
// reference's tiled step and a copy of the lecture-style solution with its names changed and its
// comments gone, compared by the real sim_c++ with matmul's template taken out.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include "similarity/compare_class.hpp"
#include "similarity/similarity_report.hpp"

namespace {
std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}
cugrade::StudentCode student(const std::string& id, const std::string& text) { return {id, text, {{"matmul.cu", 1}}}; }
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: cugrade_similarity_sample OUT_DIR\n";
    return 1;
  }
  const std::filesystem::path root = CUGRADE_SOURCE_ROOT, dir = argv[1];
  std::filesystem::create_directories(dir);
  const std::string lecture = read(root / "graders/matmul/solutions/good/lecture_style.cu");
  std::string copy = std::regex_replace(lecture, std::regex(R"(//[^\n]*)"), "");
  copy = std::regex_replace(copy, std::regex(R"(\bPvalue\b)"), "acc");
  copy = std::regex_replace(copy, std::regex(R"(\bRow\b)"), "r");
  copy = std::regex_replace(copy, std::regex(R"(\bCol\b)"), "c");
  auto processes = cugrade::make_process_runner();
  auto compared = cugrade::compare_class(
      *processes,
      {student("ada", read(root / "graders/matmul/solutions/good/four_rows_per_thread.cu")), student("grace", lecture),
       student("linus", read(root / "reference/matmul/tiled.cu")), student("<script>x", copy)},
      student("template", read(root / "templates/matmul/matmul.cu")), dir / "work");
  if (!compared) {
    std::cerr << compared.error().message << "\n";
    return 1;
  }
  cugrade::SimilarityPageOptions options;
  options.assignment = "matmul";
  options.subtitle = "a made-up class of four";
  options.side_by_side = 2;
  options.left_out = {"margaret: no .cu file in the folder"};
  std::ofstream(dir / "similarity.html", std::ios::binary) << cugrade::render_similarity_html(*compared, options);
  return 0;
}
