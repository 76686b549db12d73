#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

// readline is configured through global variables, which Swift 6 cannot touch without data-race checks;
// these setters keep that in C.
static inline void cdstore_readline_configure(rl_completion_func_t *completion, int prompt_on_stderr) {
    rl_readline_name = "cdstore";
    rl_attempted_completion_function = completion;
    // When standard output is not the terminal (`cdstore repl > out.txt`), prompts and echo go to stderr.
    rl_outstream = prompt_on_stderr ? stderr : stdout;
    // Ctrl-C is the REPL's own (cdstore_read_line in CReadlineSupport): readline's handlers would also run on it.
    rl_catch_signals = 0;
    // Words end where predicates, key-path lists and NAME=VALUE pairs do, but not at '.', '-' or '/', so that
    // key paths (department.name), options and file paths complete whole.
    rl_completer_word_break_characters = " \t\n\"'`<>=!;|&{}()[],:+*%$";
    // A completed word inside a quoted predicate gets a space after it, not the quote (the predicate goes on).
    rl_basic_quote_characters = "";
    // A timestamp line ("#1700000000") starts each entry in the history file, so that an entry can span lines.
    history_write_timestamps = 1;
    history_comment_char = '#';
}

/// Whether lines of the history file without a timestamp line before them continue the entry before (for
/// multi-line statements). Only for files written with timestamps: in an older file every line is an entry.
static inline void cdstore_history_multiline_entries(int multiline) {
    history_multiline_entries = multiline;
}

/// The text of the line being edited, for completion that depends on the words before the cursor.
static inline const char *cdstore_readline_buffer(void) {
    return rl_line_buffer;
}

/// Tells readline that the REPL's completion is all there is: no falling back to file names when it found
/// nothing, and no closing quote after a word completed inside a quoted predicate, which goes on after it.
static inline void cdstore_readline_words_only(void) {
    rl_attempted_completion_over = 1;
    rl_completion_suppress_quote = 1;
}
