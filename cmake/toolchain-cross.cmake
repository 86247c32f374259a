# SPDX-License-Identifier: GPL-2.0-or-later
# Cross build through Debian's multiarch: the target's gcc and the :ARCH
# -dev packages (scripts/deps --cross ARCH), tests run under qemu-user.
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-cross.cmake \
#         -DPCPCTL_CROSS_ARCH=arm64          (or ppc64el)
# tests/cross/run.sh ARCH does this and runs the unit tests.
set(PCPCTL_CROSS_ARCH "" CACHE STRING "Debian architecture to build for: arm64 or ppc64el")
# CMake's compiler checks read this file again in a project of their own
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES PCPCTL_CROSS_ARCH)
if(PCPCTL_CROSS_ARCH STREQUAL "arm64")
  set(CMAKE_SYSTEM_PROCESSOR aarch64)
  set(_triplet aarch64-linux-gnu)
  set(_qemu qemu-aarch64-static)
elseif(PCPCTL_CROSS_ARCH STREQUAL "ppc64el")
  set(CMAKE_SYSTEM_PROCESSOR ppc64le)
  set(_triplet powerpc64le-linux-gnu)
  set(_qemu qemu-ppc64le-static)
else()
  message(FATAL_ERROR "PCPCTL_CROSS_ARCH must be arm64 or ppc64el, not '${PCPCTL_CROSS_ARCH}'")
endif()
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_C_COMPILER ${_triplet}-gcc)
# Only the target's libraries and headers; programs (pkg-config, xmllint) from the host.
set(CMAKE_LIBRARY_ARCHITECTURE ${_triplet})
set(CMAKE_FIND_ROOT_PATH /usr/lib/${_triplet} /usr/include/${_triplet})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${_triplet}/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
# The dynamic loader and libraries of the target sit in / through multiarch.
find_program(_qemu_path ${_qemu} REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${_qemu_path} -L /)
