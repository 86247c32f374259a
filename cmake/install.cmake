# SPDX-License-Identifier: GPL-2.0-or-later
# Installation rules: man page, completions, kernel patches, JSON Schemas, Ansible collection.
# The .deb is built from debian/ (dpkg-buildpackage), not here.
# Included from the top-level CMakeLists.txt after include(GNUInstallDirs).

# The man pages, compressed as Debian ships man pages: pcpctl(8), the
# reference, and pcpctl-transaction(7), how a change is made.
find_program(GZIP_EXECUTABLE gzip)
set(PCPCTL_MAN_PAGES pcpctl.8 pcpctl-transaction.7)
set(PCPCTL_MAN_GZ "")
foreach(page IN LISTS PCPCTL_MAN_PAGES)
  string(REGEX REPLACE ".*\\.([0-9])$" "man\\1" section ${page})
  if(GZIP_EXECUTABLE)
    add_custom_command(
      OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${page}.gz
      COMMAND ${GZIP_EXECUTABLE} -9n -c ${PROJECT_SOURCE_DIR}/man/${page}
              > ${CMAKE_CURRENT_BINARY_DIR}/${page}.gz
      DEPENDS ${PROJECT_SOURCE_DIR}/man/${page}
      COMMENT "Compressing the man page ${page}")
    list(APPEND PCPCTL_MAN_GZ ${CMAKE_CURRENT_BINARY_DIR}/${page}.gz)
    install(FILES ${CMAKE_CURRENT_BINARY_DIR}/${page}.gz
            DESTINATION ${CMAKE_INSTALL_MANDIR}/${section})
  else()
    install(FILES man/${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/${section})
  endif()
endforeach()
if(GZIP_EXECUTABLE)
  add_custom_target(manpage ALL DEPENDS ${PCPCTL_MAN_GZ})
endif()

# bash-completion loads completions on demand from its completionsdir.  Ask
# its pkg-config file where that is, relative to its prefix, so that the
# directory follows CMAKE_INSTALL_PREFIX instead of being
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
# fish loads a command's completion on demand from its vendor_completions.d,
# which fish's pkg-config file names; relative to the prefix as bash's.
set(PCPCTL_FISH_COMPLETIONS_DIR "" CACHE STRING
    "Where to install the fish completion (default: from fish's pkg-config file)")
if(NOT PCPCTL_FISH_COMPLETIONS_DIR)
  pkg_get_variable(_fish_dir fish completionsdir)
  pkg_get_variable(_fish_prefix fish prefix)
  if(_fish_dir AND _fish_prefix AND _fish_dir MATCHES "^${_fish_prefix}/(.+)$")
    set(PCPCTL_FISH_COMPLETIONS_DIR ${CMAKE_MATCH_1})
  else()
    set(PCPCTL_FISH_COMPLETIONS_DIR ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
  endif()
endif()
message(STATUS "fish completion goes to ${PCPCTL_FISH_COMPLETIONS_DIR}")
install(FILES completions/pcpctl.fish DESTINATION ${PCPCTL_FISH_COMPLETIONS_DIR})

# The README, where a package's documentation goes (/usr/share/doc/pcpctl).
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The kernel patches, every series (patches/linux-*/), with their README:
# the messages of `set --batch` and `status` point here (PCPCTL_PATCHDIR).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/patches/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/pcpctl/patches
        FILES_MATCHING PATTERN "linux-*/*.patch" PATTERN "README.md")

# The JSON Schema of every JSON document pcpctl prints (man page, --json).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/schema/ DESTINATION ${CMAKE_INSTALL_DATADIR}/pcpctl/schema
        FILES_MATCHING PATTERN "*.json")

# The textfile export's service and timer, installed disabled: an admin
# enables the timer (man page, README).  Installed with systemd's own prefix,
# they go where systemd's pkg-config file says (systemdsystemunitdir, as
# Debian's DEP-17 asks: /lib/systemd/system before the /usr merge,
# /usr/lib/systemd/system after it); under another prefix, lib/systemd/system
# there, where systemd looks for /usr/local units.
set(PCPCTL_SYSTEMD_UNIT_DIR "" CACHE STRING
    "Where to install pcpctl-textfile.service and .timer (default: from systemd's pkg-config file)")
if(NOT PCPCTL_SYSTEMD_UNIT_DIR)
  pkg_get_variable(_sd_dir systemd systemdsystemunitdir)
  pkg_get_variable(_sd_prefix systemd prefix)
  if(_sd_dir AND _sd_prefix STREQUAL CMAKE_INSTALL_PREFIX)
    set(PCPCTL_SYSTEMD_UNIT_DIR ${_sd_dir})
  else()
    set(PCPCTL_SYSTEMD_UNIT_DIR lib/systemd/system)
  endif()
endif()
message(STATUS "systemd units go to ${PCPCTL_SYSTEMD_UNIT_DIR}")
set(SBINDIR ${CMAKE_INSTALL_FULL_SBINDIR})
configure_file(systemd/pcpctl-textfile.service.in
               ${CMAKE_CURRENT_BINARY_DIR}/pcpctl-textfile.service @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pcpctl-textfile.service
              systemd/pcpctl-textfile.timer
        DESTINATION ${PCPCTL_SYSTEMD_UNIT_DIR})

# The Ansible collection pcpctl.pcpctl where ansible-core looks by default
# (its COLLECTIONS_PATHS includes /usr/share/ansible/collections), so that a
# playbook calls pcpctl.pcpctl.pcpctl with no configuration.
set(PCPCTL_ANSIBLE_COLLECTIONS_DIR ${CMAKE_INSTALL_DATADIR}/ansible/collections CACHE STRING
    "Where to install the Ansible collection pcpctl.pcpctl (its ansible_collections/ parent)")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/ansible/
        DESTINATION ${PCPCTL_ANSIBLE_COLLECTIONS_DIR}/ansible_collections/pcpctl/pcpctl
        PATTERN "tests" EXCLUDE PATTERN "__pycache__" EXCLUDE PATTERN "*.tar.gz" EXCLUDE)
