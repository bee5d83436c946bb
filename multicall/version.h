/* version.h - the one place the tracebox version is defined. */
#ifndef TRACEBOX_VERSION_H
#define TRACEBOX_VERSION_H

#define TRACEBOX_VERSION "0.1.0"

#endif
