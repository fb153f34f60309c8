#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>
#include <locale.h>

/// `stdscr` is a C global Swift 6 refuses to touch: read it through a function.
static inline WINDOW *cnc_stdscr(void) { return stdscr; }
static inline int cnc_lines(void) { return LINES; }
static inline int cnc_cols(void) { return COLS; }
static inline int cnc_color_pair(int n) { return COLOR_PAIR(n); }
static inline int cnc_a_bold(void) { return A_BOLD; }
static inline int cnc_a_reverse(void) { return A_REVERSE; }
static inline int cnc_a_dim(void) { return A_DIM; }
static inline int cnc_a_underline(void) { return A_UNDERLINE; }
static inline int cnc_a_normal(void) { return A_NORMAL; }
#include <langinfo.h>
#include <stdio.h>
#include <string.h>

/// `stdin`/`stdout` are C globals too: `newterm` needs them.
static inline FILE *cnc_stdin(void) { return stdin; }
static inline FILE *cnc_stdout(void) { return stdout; }
static inline int cnc_key_code_yes(void) { return KEY_CODE_YES; }
/// `wattr_set` is a macro in some ncurses builds: set attributes and colour pair in one call.
static inline int cnc_set_attributes(WINDOW *window, int attributes, short pair) { return wattr_set(window, (attr_t)attributes, pair, NULL); }
/// Whether the C library's locale uses UTF-8 (call after `setlocale`).
static inline int cnc_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}
/// Sets attributes and an extended colour pair (above 32767 too), as `alloc_pair` returns them.
static inline int cnc_set_attributes_pair(WINDOW *window, int attributes, int pair) { return wattr_set(window, (attr_t)attributes, 0, &pair); }
static inline int cnc_colors(void) { return COLORS; }
