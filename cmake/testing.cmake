# Criterion tests.  Under the tsan preset Criterion's runner cannot start
# (upstream issue #274: its sandbox cannot map its arena in TSan's address
# space), so the same test sources are built against the small
# API-compatible runner in tests/tsan-runner/.  Every CMakeLists that adds a
# Criterion test uses wt_criterion_test().
if(WT_SANITIZE STREQUAL "tsan")
	add_library(wt_tsan_runner STATIC
		${CMAKE_SOURCE_DIR}/tests/tsan-runner/runner.c)
	target_include_directories(wt_tsan_runner BEFORE PUBLIC
		${CMAKE_SOURCE_DIR}/tests/tsan-runner)
	target_link_libraries(wt_tsan_runner PUBLIC m)
	set(WT_CRITERION_LIB wt_tsan_runner)
else()
	set(WT_CRITERION_LIB PkgConfig::CRITERION)
endif()

# wt_criterion_test(NAME SOURCE LABELS LIBS...)
function(wt_criterion_test name src labels)
	add_executable(${name} ${src})
	target_link_libraries(${name} PRIVATE ${ARGN} ${WT_CRITERION_LIB})
	add_test(NAME ${name} COMMAND ${name} --jobs 2 --full-stats)
	set_tests_properties(${name} PROPERTIES LABELS "${labels}"
		ENVIRONMENT "WT_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
endfunction()
