/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Forced (-include) into every file of the parts below the commands
 * (CMakeLists.txt): only the command table and the commands parse options,
 * so popt's names are poisoned there and including <popt.h> fails to
 * compile, though the header itself is on every include path.
 */
#pragma GCC poison poptContext poptGetContext poptGetNextOpt poptOption
