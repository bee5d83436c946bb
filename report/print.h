/* print.h - the report's output: a large buffer, and the line format. */
#ifndef PRINT_H
#define PRINT_H

#include <stdint.h>
#include <stdio.h>
#include <event-parse.h>

/* Output through one large buffer: few write() calls for big reports. */
struct outbuf {
	FILE *fp;
	char *buf;
	size_t len, cap;
	int error;		/* a write failed */
};

void outbuf_init(struct outbuf *o, FILE *fp);
void outbuf_put(struct outbuf *o, const char *p, size_t n);
void outbuf_puts(struct outbuf *o, const char *s);
void outbuf_putc(struct outbuf *o, char c);
void outbuf_pad(struct outbuf *o, size_t n);
void outbuf_printf(struct outbuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int outbuf_flush(struct outbuf *o);
void outbuf_free(struct outbuf *o);

struct print_opts {
	int time_is_ns;		/* clock counts nanoseconds: sec.usec */
	int full_ns;		/* -t */
	int raw;		/* -R */
};

int clock_is_time(const char *clock);
void print_event(struct outbuf *o, const struct print_opts *p,
		 struct tep_handle *tep, struct trace_seq *seq,
		 struct tep_record *rec, uint64_t ts, const char *label);

#endif
