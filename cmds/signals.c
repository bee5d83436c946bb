/* SPDX-License-Identifier: GPL-2.0-or-later */
/* signals.c - SIGINT, SIGTERM or SIGHUP leave no unfinished output. */
#include <signal.h>
#include <string.h>
#include "cmds/cmds.h"
#include "libfmt/outputs.h"

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* Remove what is not final, then die of the signal as before (the shell
 * still sees "killed by SIGINT"). */
static void on_stop_signal(int sig)
{
	tdat_outputs_discard();
	signal(sig, SIG_DFL);
	raise(sig);	/* taken as soon as the handler returns */
}

void discard_outputs_on_signals(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++) {
		/* one that is ignored (nohup, a background job) stays so */
		if (!sigaction(stop_signals[i], NULL, &old) &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(stop_signals[i], &sa, NULL);
	}
}
