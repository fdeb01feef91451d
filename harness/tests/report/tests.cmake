# The JUnit report against a published JUnit schema (CTest label cpu): Jenkins' junit-10.xsd
# (data/PROVENANCE.md), validated with xmllint. Skipped without xmllint, except in CI.
add_executable(cugrade_junit_samples ${CMAKE_CURRENT_LIST_DIR}/junit_schema/write_samples.cpp)
target_link_libraries(cugrade_junit_samples PRIVATE cugrade_report)
target_include_directories(cugrade_junit_samples PRIVATE ${CMAKE_CURRENT_LIST_DIR}/..)
add_test(NAME report/junit_schema
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/junit_schema/junit_schema_test.sh $<TARGET_FILE:cugrade_junit_samples>
                 ${CMAKE_CURRENT_LIST_DIR}/data/junit-10.xsd ${CMAKE_CURRENT_BINARY_DIR}/junit_samples)
set_tests_properties(report/junit_schema PROPERTIES LABELS cpu SKIP_RETURN_CODE 77 TIMEOUT 60)

# The Classroom 50 report against Classroom 50's published schema (CTest label cpu):
# result-v1.schema.json (data/classroom50/PROVENANCE.md), validated with Python's jsonschema.
add_executable(cugrade_classroom50_samples ${CMAKE_CURRENT_LIST_DIR}/classroom50_schema/write_samples.cpp)
target_link_libraries(cugrade_classroom50_samples PRIVATE cugrade_report)
target_include_directories(cugrade_classroom50_samples PRIVATE ${CMAKE_CURRENT_LIST_DIR}/..)
add_test(NAME report/classroom50_schema
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/classroom50_schema/classroom50_schema_test.sh
                 $<TARGET_FILE:cugrade_classroom50_samples> ${CMAKE_CURRENT_LIST_DIR}/data/classroom50/result-v1.schema.json
                 ${CMAKE_CURRENT_BINARY_DIR}/classroom50_samples)
set_tests_properties(report/classroom50_schema PROPERTIES LABELS cpu SKIP_RETURN_CODE 77 TIMEOUT 60)
