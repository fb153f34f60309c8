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
