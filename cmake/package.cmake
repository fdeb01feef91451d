# Install rules and the Debian package (`cmake --build --preset default --target package`, or
# scripts/package.sh): cugrade_<version>_amd64.deb, laid out as the FHS asks and as an installed
# cugrade looks for its files beside its own program (harness/src/core/locations.hpp):
#   /usr/bin/cugrade
#   /usr/share/cugrade/   assignments/ (spec, interface.cuh, statement), reference/, templates/
#                         (students' starting files, the student workflow, Gradescope's files),
#                         graders/<id>/solutions/ (known submissions and expected.yaml) and
#                         graders/<id>/reference_error.yaml,
#                         graders/selftest-seconds.json, cpu-include/ (the CPU backend's shims)
#   /usr/lib/cugrade/     runners/ (CUDA runner libraries, reference runners, the probe and
#                         calibrate; only where nvcc built them), cpu-runners/
#   /usr/share/doc/cugrade/  copyright, changelog.gz
# The tests are not installed. The graders' C++ (generator, gold, adapter) is compiled into
# cugrade and the runners, so only their solutions travel; a course that changes an assignment
# builds cugrade from source.

set(data_dir ${CUGRADE_INSTALL_DATADIR})
set(lib_dir ${CUGRADE_INSTALL_LIBDIR})

install(TARGETS cugrade RUNTIME DESTINATION ${CUGRADE_INSTALL_BINDIR})
install(DIRECTORY assignments/ DESTINATION ${data_dir}/assignments)
install(DIRECTORY reference/ DESTINATION ${data_dir}/reference)
# The Gradescope scripts keep their executable bits (a course copies them into its zip).
install(DIRECTORY templates/ DESTINATION ${data_dir}/templates
        FILE_PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ
        PATTERN setup.sh PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE
        PATTERN run_autograder PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
install(DIRECTORY harness/cpu/include/ DESTINATION ${data_dir}/cpu-include)
install(FILES graders/selftest-seconds.json DESTINATION ${data_dir}/graders)

file(GLOB assignment_adapters CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/graders/*/adapter.cpp)
foreach(adapter IN LISTS assignment_adapters)
  get_filename_component(grader_dir ${adapter} DIRECTORY)
  get_filename_component(id ${grader_dir} NAME)
  install(DIRECTORY graders/${id}/solutions DESTINATION ${data_dir}/graders/${id})
  # The reference's measured error, which `cugrade lint` shows each tolerance beside.
  install(FILES graders/${id}/reference_error.yaml DESTINATION ${data_dir}/graders/${id} OPTIONAL)
  # CPU runners (harness/cpu/runners.cmake), built with or without nvcc.
  if(TARGET cugrade_cpu_runner_${id})
    install(TARGETS cugrade_cpu_runner_${id} ARCHIVE DESTINATION ${lib_dir}/cpu-runners/${id})
    install(TARGETS cugrade_cpu_reference_runner_${id} RUNTIME DESTINATION ${lib_dir}/cpu-runners/${id})
  endif()
  # CUDA runners (harness/runtime/CMakeLists.txt), only where nvcc built them.
  if(TARGET cugrade_runner_${id})
    install(TARGETS cugrade_runner_${id} ARCHIVE DESTINATION ${lib_dir}/runners/${id})
    install(TARGETS cugrade_reference_runner_${id} RUNTIME DESTINATION ${lib_dir}/runners/${id})
  endif()
endforeach()
# The runner libraries without their debug information (a tenth of their size): a submission's
# link needs their symbols, nothing reads their DWARF. Only where the install strips (CPack).
install(CODE "
  if(CMAKE_INSTALL_DO_STRIP)
    file(GLOB_RECURSE runner_archives \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${lib_dir}/*.a\")
    foreach(archive IN LISTS runner_archives)
      execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug \"\${archive}\" RESULT_VARIABLE stripped)
      if(NOT stripped EQUAL 0)
        message(FATAL_ERROR \"cannot strip \${archive}\")
      endif()
    endforeach()
  endif()")
foreach(helper cugrade-probe cugrade-calibrate)
  if(TARGET ${helper})
    install(TARGETS ${helper} RUNTIME DESTINATION ${lib_dir}/runners)
  endif()
endforeach()

# Everything grading needs and the package holds (cugrade, its CUDA and CPU runners, the probe and
# calibrate), not the tests: `cmake --build --preset default --target grading` (scripts/quickstart.sh,
# scripts/package.sh).
add_custom_target(grading)
add_dependencies(grading cugrade)
if(TARGET cpu-runners)
  add_dependencies(grading cpu-runners)
endif()
foreach(target cugrade-probe cugrade-calibrate)
  if(TARGET ${target})
    add_dependencies(grading ${target})
  endif()
endforeach()
foreach(adapter IN LISTS assignment_adapters)
  get_filename_component(grader_dir ${adapter} DIRECTORY)
  get_filename_component(id ${grader_dir} NAME)
  if(TARGET cugrade_runner_${id})
    add_dependencies(grading cugrade_runner_${id} cugrade_reference_runner_${id})
  endif()
endforeach()

# Debian's documentation files: a native package's changelog (gzip -9n, as lintian asks) and the
# copyright file. The date is the configure time, or $SOURCE_DATE_EPOCH's for a reproducible build.
set(CUGRADE_PACKAGE_MAINTAINER "cugrade maintainers <cugrade@example.org>" CACHE STRING
    "The Maintainer field of the Debian package (a course's own package names its staff)")
string(TIMESTAMP changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(package_doc_dir ${PROJECT_BINARY_DIR}/package-doc)
file(MAKE_DIRECTORY ${package_doc_dir})
file(WRITE ${package_doc_dir}/changelog
     "cugrade (${PROJECT_VERSION}) unstable; urgency=medium\n\n"
     "  * cugrade ${PROJECT_VERSION}, packaged with CPack (cmake/package.cmake).\n\n"
     " -- ${CUGRADE_PACKAGE_MAINTAINER}  ${changelog_date}\n")
execute_process(COMMAND gzip -9nf ${package_doc_dir}/changelog RESULT_VARIABLE gzipped)
if(NOT gzipped EQUAL 0)
  message(FATAL_ERROR "cugrade: gzip could not compress ${package_doc_dir}/changelog")
endif()
install(FILES ${package_doc_dir}/changelog.gz cmake/debian/copyright DESTINATION share/doc/cugrade)

# CPack's Debian generator. Dependencies: the shared libraries cugrade links (dpkg-shlibdeps)
# plus the programs it runs: bubblewrap (the sandbox), g++ and binutils (the CPU backend's
# compile, nm and objcopy for the symbol policy and the seal). util-linux (prlimit, setpriv) is
# Essential: every Debian system has it, and Debian's policy forbids depending on it.
# The CUDA toolkit is not in Debian main: it is recommended in words (Description), not depended
# on; without it cugrade grades on its CPU backend.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME cugrade)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# cugrade-calibrate links the toolkit's cuBLAS, which no Debian package of main holds: look for
# it there (CPack already passes --ignore-missing-info, so it adds no dependency).
if(CUGRADE_WITH_CUDA AND CUDAToolkit_LIBRARY_DIR)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CUDAToolkit_LIBRARY_DIR})
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "bubblewrap, g++ (>= 4:12), binutils")
# `cugrade similarity` and `grade --similarity` run Debian's sim_c++; grading itself does not.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "similarity-tester")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CUGRADE_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "grading harness for a CUDA course")
# CPack makes the synopsis from the summary and formats the paragraphs below (an empty line
# becomes Debian's " .").
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "cugrade compiles a student's CUDA file, checks its results against a gold
computed in double precision, times it against the reference solution on the
same GPU and writes a grade report, for one student, a class or CI. This
package holds the program, the course's assignments, references, templates
and graders' solutions, and the prebuilt runners.

Grading on a GPU needs NVIDIA's CUDA toolkit (nvcc), which is not part of
Debian main; without it cugrade grades correctness on its own CPU backend.")
include(CPack)
