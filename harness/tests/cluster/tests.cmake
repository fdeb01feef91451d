# The class graded on a real single-node Slurm (label slurm): scripts/local-slurm.sh starts
# munged, slurmctld and slurmd in a temporary folder (two fake GPUs as gres, MaxArraySize=4);
# the gradebook of `--slurm --shards 6` equals a local grade's, and after a cancelled task and a
# node failure the rerun grades exactly the students left without a result. Skipped (exit 77),
# saying why, where Slurm is not installed or cannot start.
add_test(NAME cluster/slurm_class
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/slurm_class_test.sh $<TARGET_FILE:cugrade> ${PROJECT_SOURCE_DIR})
set_tests_properties(cluster/slurm_class PROPERTIES LABELS slurm SKIP_RETURN_CODE 77 TIMEOUT 1500)

# Its scripts pass shellcheck like the others (label lint; Skipped without shellcheck).
add_test(NAME lint/shell_cluster
         COMMAND ${PROJECT_SOURCE_DIR}/harness/tests/ci/lint_shell.sh ${PROJECT_SOURCE_DIR}/scripts/local-slurm.sh
                 ${CMAKE_CURRENT_LIST_DIR}/slurm_class_test.sh)
set_tests_properties(lint/shell_cluster PROPERTIES LABELS lint SKIP_RETURN_CODE 77 TIMEOUT 60)
