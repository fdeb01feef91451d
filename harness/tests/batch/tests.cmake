# The batch's end-to-end test (CTest label cpu): a generated class of 100 vecadd submissions —
# correct, wrong, not compiling, hanging, crashing, flooding, archived, empty, damaged — graded
# by the real cugrade on the CPU backend, the gradebook checked against what each must get;
# then graded again while killed half-way with SIGKILL and resumed, the final gradebook
# identical to the uninterrupted one. Needs cugrade and the CPU runner libraries (default build).
add_test(NAME batch/class_end_to_end
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/class_end_to_end.sh $<TARGET_FILE:cugrade> ${PROJECT_SOURCE_DIR} 100)
set_tests_properties(batch/class_end_to_end PROPERTIES LABELS cpu TIMEOUT 600)

# Files are data, end to end (CTest label cpu): ids and file names with any bytes graded in full
# by the real cugrade on the CPU backend; links, pipes and oversized files refused as the
# student's result; the course secret in no work file, argv or environment of the runner.
add_test(NAME batch/hostile_files
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/hostile_files.sh $<TARGET_FILE:cugrade> ${PROJECT_SOURCE_DIR})
set_tests_properties(batch/hostile_files PROPERTIES LABELS cpu TIMEOUT 900)

# Right grades in real course set-ups (CTest label cpu): relative --out/--keep-work grade in
# full; --backend cuda without a GPU is a harness error (exit 3, no Gradescope result); the late
# flag from a git commit, Gradescope's metadata or archive entries rather than the copy's times;
# Canvas's download of loose files graded a student at a time, late as Canvas marked it; Blackboard's,
# each student's last attempt, late by the attempt's time in its names.
add_test(NAME batch/course_setups
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/course_setups.sh $<TARGET_FILE:cugrade> ${PROJECT_SOURCE_DIR})
set_tests_properties(batch/course_setups PROPERTIES LABELS cpu TIMEOUT 600)

# The batch's scripts pass shellcheck like the others (label lint; Skipped without shellcheck).
add_test(NAME lint/shell_batch
         COMMAND ${PROJECT_SOURCE_DIR}/harness/tests/ci/lint_shell.sh ${PROJECT_SOURCE_DIR}/scripts/make-class.sh
                 ${CMAKE_CURRENT_LIST_DIR}/class_end_to_end.sh ${CMAKE_CURRENT_LIST_DIR}/hostile_files.sh
                 ${CMAKE_CURRENT_LIST_DIR}/course_setups.sh)
set_tests_properties(lint/shell_batch PROPERTIES LABELS lint SKIP_RETURN_CODE 77 TIMEOUT 60)

# Parts of a class side by side (CTest label cpu): three `--shard I/3` processes into one OUT,
# each its part alone, then `--collect`: every outcome the one its kind must get; a lost result
# listed (exit 3) with the command that grades exactly it.
add_test(NAME batch/shards_side_by_side
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/shards_side_by_side.sh $<TARGET_FILE:cugrade> ${PROJECT_SOURCE_DIR} 12)
set_tests_properties(batch/shards_side_by_side PROPERTIES LABELS cpu TIMEOUT 600)
add_test(NAME lint/shell_shards
         COMMAND ${PROJECT_SOURCE_DIR}/harness/tests/ci/lint_shell.sh ${CMAKE_CURRENT_LIST_DIR}/shards_side_by_side.sh)
set_tests_properties(lint/shell_shards PROPERTIES LABELS lint SKIP_RETURN_CODE 77 TIMEOUT 60)

# The leaderboard and Classroom 50's result end to end (CTest label cpu): a generated class of
# transpose graded by the real cugrade on the CPU backend; leaderboard.html and .csv written,
# linked from summary.html and saying why no time counts; `--collect` writes them too (no secret:
# nobody named, and why; --leaderboard-names); `check --report classroom50=` inside Classroom 50's
# environment follows its schema, outside it is refused before grading.
add_test(NAME batch/leaderboard_end_to_end
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/leaderboard_end_to_end.sh $<TARGET_FILE:cugrade> ${PROJECT_SOURCE_DIR} 6)
set_tests_properties(batch/leaderboard_end_to_end PROPERTIES LABELS cpu TIMEOUT 600)
add_test(NAME lint/shell_leaderboard
         COMMAND ${PROJECT_SOURCE_DIR}/harness/tests/ci/lint_shell.sh ${CMAKE_CURRENT_LIST_DIR}/leaderboard_end_to_end.sh
                 ${PROJECT_SOURCE_DIR}/harness/tests/report/classroom50_schema/classroom50_schema_test.sh)
set_tests_properties(lint/shell_leaderboard PROPERTIES LABELS lint SKIP_RETURN_CODE 77 TIMEOUT 60)
# A late policy, extensions and regrade diffs, end to end (CTest label cpu): a class from
# make-class.sh with hand-in times in archives and a git commit; every boundary of the policy
# (the grace's last second and the one after, max-days's), an extension, a time unknown (not
# penalised, named); bad input refused before anything is graded; graded again after the spec
# and a student's files changed, regrade.csv lists old and new scores and what changed; the same
# class in two --shard parts and --collect, the parts' regrades in one regrade.csv.
add_test(NAME batch/late_and_regrade
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/late_and_regrade.sh $<TARGET_FILE:cugrade> ${PROJECT_SOURCE_DIR})
set_tests_properties(batch/late_and_regrade PROPERTIES LABELS cpu TIMEOUT 600)
add_test(NAME lint/shell_late
         COMMAND ${PROJECT_SOURCE_DIR}/harness/tests/ci/lint_shell.sh ${CMAKE_CURRENT_LIST_DIR}/late_and_regrade.sh)
set_tests_properties(lint/shell_late PROPERTIES LABELS lint SKIP_RETURN_CODE 77 TIMEOUT 60)
