# Code similarity end to end (CTest label cpu): a generated class of honest, independent
# solutions and planted copies of them (renamed, reordered, recommented, reformatted by
# clang-format) compared by the real cugrade and Debian's sim_c++; every planted pair must rank
# above every honest pair, and summary.html must link the page after `grade --similarity`.
# Skipped without clang-format (a test tool); sim_c++ is one of cugrade's own dependencies.
add_test(NAME similarity/class_similarity
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/class_similarity.sh $<TARGET_FILE:cugrade> ${PROJECT_SOURCE_DIR})
set_tests_properties(similarity/class_similarity PROPERTIES LABELS cpu SKIP_RETURN_CODE 77 TIMEOUT 600)

# The similarity scripts pass shellcheck like the others (label lint; Skipped without shellcheck).
add_test(NAME lint/shell_similarity
         COMMAND ${PROJECT_SOURCE_DIR}/harness/tests/ci/lint_shell.sh ${PROJECT_SOURCE_DIR}/scripts/make-similarity-class.sh
                 ${CMAKE_CURRENT_LIST_DIR}/class_similarity.sh)
set_tests_properties(lint/shell_similarity PROPERTIES LABELS lint SKIP_RETURN_CODE 77 TIMEOUT 60)
