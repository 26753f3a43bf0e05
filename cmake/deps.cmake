# Every dependency is found with pkg-config; a missing one stops the
# configure step and names the Debian package that provides it.
find_package(PkgConfig)
if(NOT PKG_CONFIG_FOUND)
	message(FATAL_ERROR "pkg-config not found: apt-get install pkg-config")
endif()
find_package(Threads REQUIRED)

function(wt_require_pkg target module debian)
	pkg_check_modules(${target} QUIET IMPORTED_TARGET ${module})
	if(NOT ${target}_FOUND)
		message(FATAL_ERROR
			"missing dependency '${module}': apt-get install ${debian}")
	endif()
endfunction()

wt_require_pkg(CK ck libck-dev)
wt_require_pkg(CRITERION criterion libcriterion-dev)
wt_require_pkg(HWLOC hwloc libhwloc-dev)
wt_require_pkg(YAML yaml-0.1 libyaml-dev)
wt_require_pkg(JANSSON jansson libjansson-dev)
wt_require_pkg(SQLITE sqlite3 libsqlite3-dev)
