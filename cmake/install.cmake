# Installation and packaging rules (binary, man page, completions, .deb).
# Included from the top-level CMakeLists.txt after include(GNUInstallDirs).

# The man page, compressed as Debian ships man pages.
find_program(GZIP_EXECUTABLE gzip)
if(GZIP_EXECUTABLE)
  add_custom_command(
    OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/pcpctl.8.gz
    COMMAND ${GZIP_EXECUTABLE} -9n -c ${PROJECT_SOURCE_DIR}/man/pcpctl.8
            > ${CMAKE_CURRENT_BINARY_DIR}/pcpctl.8.gz
    DEPENDS ${PROJECT_SOURCE_DIR}/man/pcpctl.8
    COMMENT "Compressing the man page")
  add_custom_target(manpage ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/pcpctl.8.gz)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pcpctl.8.gz
          DESTINATION ${CMAKE_INSTALL_MANDIR}/man8)
else()
  install(FILES man/pcpctl.8 DESTINATION ${CMAKE_INSTALL_MANDIR}/man8)
endif()

# bash-completion loads completions on demand from its completionsdir.  Ask
# its pkg-config file where that is, relative to its prefix, so that the
# directory follows CMAKE_INSTALL_PREFIX (and CPack's /usr) instead of being
# an absolute path of the build machine.
set(PCPCTL_BASH_COMPLETIONS_DIR "" CACHE STRING
    "Where to install the bash completion (default: from bash-completion's pkg-config file)")
if(NOT PCPCTL_BASH_COMPLETIONS_DIR)
  pkg_get_variable(_bc_dir bash-completion completionsdir)
  pkg_get_variable(_bc_prefix bash-completion prefix)
  if(_bc_dir AND _bc_prefix AND _bc_dir MATCHES "^${_bc_prefix}/(.+)$")
    set(PCPCTL_BASH_COMPLETIONS_DIR ${CMAKE_MATCH_1})
  elseif(_bc_dir)
    set(PCPCTL_BASH_COMPLETIONS_DIR ${_bc_dir})
  else()
    set(PCPCTL_BASH_COMPLETIONS_DIR ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
  endif()
endif()
message(STATUS "bash completion goes to ${PCPCTL_BASH_COMPLETIONS_DIR}")
install(FILES completions/pcpctl.bash DESTINATION ${PCPCTL_BASH_COMPLETIONS_DIR}
        RENAME pcpctl)
# Debian's zsh searches vendor-completions for packaged completions.
install(FILES completions/_pcpctl DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)

# The textfile export's service and timer, installed disabled: an admin
# enables the timer (man page, README).  lib/systemd/system under the prefix
# is where systemd looks for /usr and /usr/local units alike.
set(PCPCTL_SYSTEMD_UNIT_DIR lib/systemd/system CACHE STRING
    "Where to install pcpctl-textfile.service and .timer, relative to the prefix")
set(SBINDIR ${CMAKE_INSTALL_FULL_SBINDIR})
configure_file(systemd/pcpctl-textfile.service.in
               ${CMAKE_CURRENT_BINARY_DIR}/pcpctl-textfile.service @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pcpctl-textfile.service
              systemd/pcpctl-textfile.timer
        DESTINATION ${PCPCTL_SYSTEMD_UNIT_DIR})

# --- CPack: `cpack -G DEB` in the build directory ------------------------------
set(CPACK_PACKAGE_NAME pcpctl)
set(CPACK_PACKAGE_VENDOR "pcpctl")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "show and tune the page allocator's per-CPU page lists")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_IGNORE_FILES "/build.*/" "/\\\\.git/")

set(PCPCTL_MAINTAINER "pcpctl maintainers <maintainers@pcpctl.invalid>" CACHE STRING
    "Maintainer field of the .deb")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${PCPCTL_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
# The first line of the control file's Description is the summary above.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"Every zone of the Linux page allocator keeps a list of free pages per CPU.
Its batch and high decide how often CPUs contend for the zone lock.
pcpctl shows them as a table, JSON or shell pairs, per CPU or per zone;
sets vm.percpu_pagelist_high_fraction and, on kernels with its patch,
vm.percpu_pagelist_batch as a verified, journaled transaction that rolls
back on failure, optionally persisted in /etc/sysctl.d; and sweeps a
workload over batch or fraction values to measure their effect.")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion")

# Dependencies: dpkg-shlibdeps (dpkg-dev) derives them from the binary's
# libraries; without it, the libraries pcpctl links, at the versions that
# dpkg-shlibdeps gives on Debian 12.
find_program(DPKG_SHLIBDEPS_EXECUTABLE dpkg-shlibdeps)
if(DPKG_SHLIBDEPS_EXECUTABLE)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
      "libc6 (>= 2.36), libcap2 (>= 1:2.26), libpopt0 (>= 1.14), libsmartcols1 (>= 2.33)")
endif()

include(CPack)
