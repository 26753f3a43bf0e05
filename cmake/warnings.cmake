# Warnings: the presets (and so CI) set WT_WERROR=ON; a plain
# `cmake -S . -B build` (what packagers type) warns but does not fail, and
# .ci/run checks that such a Release (-O3) build has no warning at all.
add_compile_options(-Wall -Wextra -Wshadow -Wno-unused-parameter
	-Wstrict-prototypes -Wmissing-prototypes -Wformat=2)
if(WT_WERROR)
	add_compile_options(-Werror)
endif()
