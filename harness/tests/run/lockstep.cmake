# Fixtures of the lock-step timing tests (run/lockstep_timing_test.cpp), on the CPU backend so
# that CI runs them: five students of assignment reduction, linked with its CPU runner library the
# way cugrade links a submission, and the reduction's CPU reference runner.
set(lockstep_dir ${CMAKE_CURRENT_LIST_DIR}/data/lockstep)
foreach(student honest caching recognising crashing nudging)
  cugrade_cpu_prepass_sources(prepassed ${CMAKE_CURRENT_BINARY_DIR}/lockstep-${student} ${lockstep_dir}/${student}_reduction.cu)
  add_executable(lockstep_${student}_runner ${prepassed})
  target_include_directories(lockstep_${student}_runner PRIVATE ${CUGRADE_CPU_INCLUDE_DIR}
    ${PROJECT_SOURCE_DIR}/assignments/reduction)
  target_compile_options(lockstep_${student}_runner PRIVATE ${CUGRADE_CPU_CUDA_FLAGS})
  target_link_libraries(lockstep_${student}_runner PRIVATE cugrade_cpu_runner_reduction Boost::context Threads::Threads)
  add_dependencies(test_run lockstep_${student}_runner)
endforeach()
add_dependencies(test_run cugrade_cpu_reference_runner_reduction)
target_compile_definitions(test_run PRIVATE
  CUGRADE_LOCKSTEP_HONEST="$<TARGET_FILE:lockstep_honest_runner>"
  CUGRADE_LOCKSTEP_CACHING="$<TARGET_FILE:lockstep_caching_runner>"
  CUGRADE_LOCKSTEP_RECOGNISING="$<TARGET_FILE:lockstep_recognising_runner>"
  CUGRADE_LOCKSTEP_CRASHING="$<TARGET_FILE:lockstep_crashing_runner>"
  CUGRADE_LOCKSTEP_NUDGING="$<TARGET_FILE:lockstep_nudging_runner>"
  CUGRADE_LOCKSTEP_REFERENCE="$<TARGET_FILE:cugrade_cpu_reference_runner_reduction>")
