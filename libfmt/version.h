/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* version.h - the one place the tdat version is defined. */
#ifndef TDAT_VERSION_H
#define TDAT_VERSION_H

#define TDAT_VERSION "0.1.0"

#endif
