# Sanitizer builds, chosen by WT_SANITIZE (the presets set it).
if(WT_SANITIZE STREQUAL "tsan")
	add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
	add_link_options(-fsanitize=thread)
	add_compile_definitions(WT_TSAN=1)
elseif(WT_SANITIZE STREQUAL "asan-ubsan")
	add_compile_options(-fsanitize=address,undefined
		-fno-sanitize-recover=all -fno-omit-frame-pointer)
	add_link_options(-fsanitize=address,undefined)
	add_compile_definitions(WT_ASAN=1)
elseif(NOT WT_SANITIZE STREQUAL "")
	message(FATAL_ERROR "WT_SANITIZE must be '', 'tsan' or 'asan-ubsan', not '${WT_SANITIZE}'")
endif()

# The fuzz preset (clang): every library instrumented for libFuzzer's
# coverage; fuzz/ links the targets with the fuzzer's main.
if(WT_FUZZ)
	if(NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
		message(FATAL_ERROR "WT_FUZZ needs clang (the fuzz preset)")
	endif()
	add_compile_options(-fsanitize=fuzzer-no-link)
endif()
