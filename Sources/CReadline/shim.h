#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

// readline is configured through global variables, which Swift 6 cannot touch without data-race checks;
// these setters keep that in C.
static inline void cdstore_readline_configure(rl_completion_func_t *completion) {
    rl_readline_name = "cdstore";
    rl_attempted_completion_function = completion;
}

static inline void cdstore_readline_no_filename_completion(void) {
    rl_attempted_completion_over = 1;
}
