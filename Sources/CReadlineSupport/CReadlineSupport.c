// The parts of the REPL's line reading that need state shared with C callbacks (readline's line handler, a
// signal handler), which Swift cannot give them.

#include "CReadlineSupport.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>
#include <readline/readline.h>

static char *read_line_result;
static int read_line_done;

static void read_line_handler(char *line) {
    read_line_result = line;
    read_line_done = 1;
    rl_callback_handler_remove();
}

int cdstore_read_line(const char *prompt, int interrupt_fd, char **line) {
    read_line_result = NULL;
    read_line_done = 0;
    rl_callback_handler_install(prompt, read_line_handler);
    int input = fileno(rl_instream ? rl_instream : stdin);
    while (!read_line_done) {
        fd_set ready;
        FD_ZERO(&ready);
        FD_SET(input, &ready);
        if (interrupt_fd >= 0) FD_SET(interrupt_fd, &ready);
        int highest = input > interrupt_fd ? input : interrupt_fd;
        if (select(highest + 1, &ready, NULL, NULL, NULL) < 0) {
            if (errno == EINTR) continue;
            rl_callback_handler_remove();
            return 0;
        }
        // Ctrl-C first: the terminal dropped the keys not read when it was pressed, so what waits was typed after.
        if (interrupt_fd >= 0 && FD_ISSET(interrupt_fd, &ready)) {
            char drained[64];
            (void)!read(interrupt_fd, drained, sizeof drained);
            rl_point = rl_end;
            rl_redisplay();
            rl_echo_signal_char(SIGINT);
            rl_crlf();
            rl_callback_sigcleanup();
            rl_free_line_state();
            rl_replace_line("", 1);
            rl_callback_handler_remove();
            fflush(rl_outstream);
            return -1;
        }
        if (FD_ISSET(input, &ready)) rl_callback_read_char();
    }
    if (read_line_result == NULL) return 0;
    *line = read_line_result;
    return 1;
}

static int interrupt_write_fd = -1;

static void interrupt_handler(int signal) {
    (void)signal;
    int saved = errno;
    char byte = 1;
    (void)!write(interrupt_write_fd, &byte, 1);
    errno = saved;
}

int cdstore_catch_interrupts(void) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    // A full pipe must never block the handler; one byte waiting is enough.
    fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK);
    interrupt_write_fd = fds[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = interrupt_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGINT, &action, NULL) != 0) return -1;
    // A parent may have started us with SIGINT blocked (a thread pool's threads block signals, and children
    // inherit the mask): Ctrl-C would then never arrive.
    sigset_t interrupt;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGINT);
    pthread_sigmask(SIG_UNBLOCK, &interrupt, NULL);
    return fds[0];
}
