# Fixtures of the lock-step timing tests (run/lockstep_timing_test.cpp, lockstep_nbody_test.cpp),
# on the CPU backend so that CI runs them: five students of assignment reduction and three of nbody,
# each linked with its assignment's CPU runner library the way cugrade links a submission, and
# the two assignments' CPU reference runners.
set(lockstep_dir ${CMAKE_CURRENT_LIST_DIR}/data/lockstep)
set(nbody_solutions ${PROJECT_SOURCE_DIR}/graders/nbody/solutions)

# lockstep_student(<name> <assignment> <source>): runner lockstep_<name>_runner.
function(lockstep_student name assignment source)
  cugrade_cpu_prepass_sources(prepassed ${CMAKE_CURRENT_BINARY_DIR}/lockstep-${name} ${source})
  add_executable(lockstep_${name}_runner ${prepassed})
  target_include_directories(lockstep_${name}_runner PRIVATE ${CUGRADE_CPU_INCLUDE_DIR}
    ${PROJECT_SOURCE_DIR}/assignments/${assignment})
  target_compile_options(lockstep_${name}_runner PRIVATE ${CUGRADE_CPU_CUDA_FLAGS})
  target_link_libraries(lockstep_${name}_runner PRIVATE cugrade_cpu_runner_${assignment} Boost::context Threads::Threads)
  add_dependencies(test_run lockstep_${name}_runner)
endfunction()

foreach(student honest caching recognising crashing nudging)
  lockstep_student(${student} reduction ${lockstep_dir}/${student}_reduction.cu)
endforeach()
lockstep_student(nbody_honest nbody ${nbody_solutions}/good/lecture_style.cu)
lockstep_student(nbody_recognising nbody ${nbody_solutions}/attacks/recognise_renumbered_cloud.cu)
lockstep_student(nbody_sloppy nbody ${lockstep_dir}/sloppy_nbody.cu)
add_dependencies(test_run cugrade_cpu_reference_runner_reduction cugrade_cpu_reference_runner_nbody)
target_compile_definitions(test_run PRIVATE
  CUGRADE_LOCKSTEP_HONEST="$<TARGET_FILE:lockstep_honest_runner>"
  CUGRADE_LOCKSTEP_CACHING="$<TARGET_FILE:lockstep_caching_runner>"
  CUGRADE_LOCKSTEP_RECOGNISING="$<TARGET_FILE:lockstep_recognising_runner>"
  CUGRADE_LOCKSTEP_CRASHING="$<TARGET_FILE:lockstep_crashing_runner>"
  CUGRADE_LOCKSTEP_NUDGING="$<TARGET_FILE:lockstep_nudging_runner>"
  CUGRADE_LOCKSTEP_REFERENCE="$<TARGET_FILE:cugrade_cpu_reference_runner_reduction>"
  CUGRADE_LOCKSTEP_NBODY_HONEST="$<TARGET_FILE:lockstep_nbody_honest_runner>"
  CUGRADE_LOCKSTEP_NBODY_RECOGNISING="$<TARGET_FILE:lockstep_nbody_recognising_runner>"
  CUGRADE_LOCKSTEP_NBODY_SLOPPY="$<TARGET_FILE:lockstep_nbody_sloppy_runner>"
  CUGRADE_LOCKSTEP_NBODY_REFERENCE="$<TARGET_FILE:cugrade_cpu_reference_runner_nbody>")
