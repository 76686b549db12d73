#ifndef CDSTORE_READLINE_SUPPORT_H
#define CDSTORE_READLINE_SUPPORT_H

/// Reads one line with `prompt` through readline's callback interface, so that a byte arriving on
/// `interrupt_fd` (written when Ctrl-C is pressed; -1 for none) can abandon the line, as bash does: "^C", a new
/// line, and the caller shows a fresh prompt. Returns 1 with the line in `*line` (to free), 0 at end of input,
/// -1 on Ctrl-C.
int cdstore_read_line(const char *prompt, int interrupt_fd, char **line);

/// Makes SIGINT (Ctrl-C) write a byte to a new pipe instead of ending the process, and returns the pipe's read
/// end (-1 on failure). A signal handler may do almost nothing safely; whoever reads the pipe decides what
/// Ctrl-C means at that moment (abandon the line being typed, or interrupt the running command).
int cdstore_catch_interrupts(void);

#endif
