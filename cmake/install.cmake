# `cmake --install`: the binary, the shipped suites (which an installed
# binary finds beside it: cli/main.c, WT_INSTALL_SCENARIOS), the man page
# and the bash completion.  CPack makes a .deb of the same
# (`cpack -G DEB` in the build directory).
include(GNUInstallDirs)
set(WT_INSTALL_SCENARIOS_DIR ${CMAKE_INSTALL_DATADIR}/walktorture/scenarios)
# the suites from the binary's directory, so a moved prefix still works
file(RELATIVE_PATH WT_INSTALL_SCENARIOS_REL
	/prefix/${CMAKE_INSTALL_BINDIR} /prefix/${WT_INSTALL_SCENARIOS_DIR})
target_compile_definitions(walktorture PRIVATE
	WT_INSTALL_SCENARIOS="${WT_INSTALL_SCENARIOS_REL}")

install(TARGETS walktorture RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/scenarios/
	DESTINATION ${WT_INSTALL_SCENARIOS_DIR}
	FILES_MATCHING PATTERN "*.yaml" PATTERN "README.md"
	PATTERN "src" EXCLUDE)
install(FILES ${CMAKE_SOURCE_DIR}/docs/walktorture.1
	DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_SOURCE_DIR}/cli/walktorture.bash
	DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
	RENAME walktorture)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME walktorture)
set(CPACK_PACKAGE_VENDOR "walktorture")
set(CPACK_PACKAGE_CONTACT "walktorture maintainers <walktorture@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
	"concurrency stress harness for Linux pathname lookup")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)	# libjansson, libyaml, ... from ldd
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
include(CPack)
