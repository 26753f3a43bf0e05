# Warnings: the CI builds are -Werror; a developer may turn it off with
# -DWT_WERROR=OFF while hacking.
add_compile_options(-Wall -Wextra -Wshadow -Wno-unused-parameter
	-Wstrict-prototypes -Wmissing-prototypes -Wformat=2)
if(WT_WERROR)
	add_compile_options(-Werror)
endif()
