/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The clock display for the sighted opponent (Art. 6.10.1: when the device is the game clock,
 * both players must see both times): what it shows, and the bytes that show it on a 16x2
 * HD44780 character display behind a PCF8574 I2C backpack or on an SSD1306 OLED.  Pure: text
 * in, I2C messages out.  The device itself is clockface/i2c.h; the thread that writes to it,
 * clockface/writer.h.
 *
 * The face has two rows of FACE_COLS characters, White's above Black's:
 *
 *	col 0     the side's mark: FACE_GLYPH_MOVE while its clock runs, FACE_GLYPH_PAUSE while
 *	          the clocks stand on its turn, FACE_GLYPH_FLAG once its flag fell
 *	cols 1-7  before the clock starts (or without one) the side's name (the interface
 *	          language's, upper case, at most 7 letters); then its initial, a '+' while it
 *	          has passed a time control the other side has not yet passed (else a space),
 *	          right-aligned, the moves it has made, "12/40" when its period ends with a
 *	          move count (the count at which it ends), or, while its delay runs (delay
 *	          mode), FACE_GLYPH_DELAY and the whole seconds of delay left
 *	cols 8-15 its time, right-aligned: H:MM:SS from an hour, M:SS below, M:SS.T (tenths)
 *	          below ten seconds when tenths are on; "-" without a clock
 *
 * A power problem ([power]) shows in White's row, column 8 (left free by every time under
 * ten hours): FACE_GLYPH_LOW_VOLTAGE while the Pi's supply is too weak, FACE_GLYPH_BATTERY
 * while the device runs on a battery.
 *
 * Big digits ([display] digits = big), for the opponent across the table: the SSD1306 draws
 * the same rows with the time as large as its row allows and the running side's row in
 * reverse video (ssd1306_render_big()); the HD44780 shows the two times side by side in
 * digits two rows high made of its eight CGRAM characters (face_layout_big()).
 */
#ifndef ANNABELLA_CLOCKFACE_FACE_H
#define ANNABELLA_CLOCKFACE_FACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FACE_ROWS 2
#define FACE_COLS 16

/* The face's own characters (below the space; the drivers draw them). */
#define FACE_GLYPH_FLAG	       '\x01'
#define FACE_GLYPH_MOVE	       '\x02'
#define FACE_GLYPH_PAUSE       '\x03'
#define FACE_GLYPH_BATTERY     '\x04'
#define FACE_GLYPH_LOW_VOLTAGE '\x05'
#define FACE_GLYPH_DELAY       '\x06' /* an hourglass: the delay still running */
#define FACE_GLYPHS	       6
/* Big digits on the HD44780: the parts of a digit two characters wide and two rows high are
 * CGRAM characters 0..7, shown through their codes 8..15 (the same characters; 0 would end
 * the text). */
#define FACE_BIG_PART(k) ((char)(0x08 + (k)))

struct face_text {
	char row[FACE_ROWS][FACE_COLS + 1];
	bool plain; /* text to show as it is, also in big mode (the arbiter's menu) */
};

/* The clocks as the face shows them. */
struct face_view {
	bool has_clock;
	int64_t ms[2]; /* time left, White and Black */
	int running;   /* the side whose clock runs (or would, while paused), or -1 */
	bool paused;
	int flagged;	  /* the side whose flag fell, or -1 */
	bool started;	  /* the clock has been started (before: the names) */
	int moves[2];	  /* the moves each side has made (the clock's counter) */
	int control[2];	  /* the count at which the side's period ends; 0: none */
	int64_t delay_ms; /* delay mode: the running side's delay left; -1: none */
	char power;	  /* FACE_GLYPH_LOW_VOLTAGE, FACE_GLYPH_BATTERY, or 0: no power problem */
};

/* The arbiter's menu on the board's buttons (referee/board_arbiter.h) as the face shows it:
 *	PIN	both times as the clocks stand or run ("   4:53<4:58   ", the mark pointing
 *		at the running clock, '=' while they stand: the clocks may still run while
 *		the PIN is entered, and both players must see them), below "PIN" and a star
 *		per digit entered (never a digit), or how long a PIN must wait after five
 *		wrong ones
 *	ITEM	the title and the item's place ("2/4"), below "> " and the item
 *	EDIT	both sides as "W 1:29:59  Z  23" (initial, time, moves made), the field being
 *		set blinking (blink_off: hidden this half second)
 */
enum face_menu_screen { FACE_MENU_PIN = 1, FACE_MENU_ITEM, FACE_MENU_EDIT };
enum face_menu_item {
	FACE_ITEM_RESUME = 0,
	FACE_ITEM_SET_CLOCKS,
	FACE_ITEM_RESULT,
	FACE_ITEM_CLOSE,
	FACE_ITEM_SEAL, /* the fair-play verdict: `result` "ok" or "breach" */
};
struct face_menu {
	enum face_menu_screen screen;
	int digits, wait_s;	  /* PIN */
	enum face_menu_item item; /* ITEM */
	const char *result;	  /* its result ("1/2-1/2" shows as 1/2) */
	int at, count;
	int64_t ms[2]; /* EDIT: the times (whole seconds, under ten hours) */
	int moves[2];
	int field; /* White's hours, minutes, seconds, moves, then Black's: 0..7 */
	bool blink_off;
};
void face_layout_menu(const struct face_menu *m, const char *lang, const struct face_view *clocks,
		      bool tenths, struct face_text *out);

/* The side names, upper case ASCII: "de", "en", "sv", "nl" (anything else: English). */
void face_names(const char *lang, const char *names[2]);
/* A time as the face shows it (see above); negative times show as zero. */
void face_format_time(int64_t ms, bool tenths, char *buf, size_t size);
void face_layout(const struct face_view *v, const char *const names[2], bool tenths,
		 struct face_text *out);
/* The HD44780's big digits: White's half (cols 0-7) beside Black's (8-15).  In each half, col
 * 0 holds the mark (top: '>' running, '=' the clocks stand, 'F' flag) and the initial below
 * (or, while the delay runs, its whole seconds), cols 1-7 the time in digits two rows high:
 * "M:SS" below ten minutes (below ten seconds "S.T" with tenths), "HhMM" from an hour, and
 * between them the minutes big with ":SS" small above the moves made. */
void face_layout_big(const struct face_view *v, const char *const names[2], bool tenths,
		     struct face_text *out);
/* How long until the running side's time shows differently (the next whole second, or tenth
 * below ten seconds): at least 1 ms; UINT64_MAX when no clock runs. */
uint64_t face_next_change_ms(const struct face_view *v, bool tenths);

/* ------------------------------------------------------------------ I2C messages */

/* One I2C write: the bytes after the address (an SMBus I2C-block write carries at most 33:
 * the command byte and 32 data bytes), then a pause the device needs before the next. */
#define FACE_MSG_MAX 33
struct face_msg {
	uint8_t len;
	uint16_t wait_us;
	uint8_t b[FACE_MSG_MAX];
};

#define FACE_OUT_MAX 96
struct face_out {
	int n;
	bool overflow; /* more than FACE_OUT_MAX messages were needed */
	struct face_msg msg[FACE_OUT_MAX];
};

enum face_type { FACE_NONE = 0, FACE_HD44780, FACE_SSD1306 };

/* What each driver keeps of the screen: the text shown (HD44780) or the frame (SSD1306). */
#define FACE_FRAME_MAX (128 * 64 / 8)
struct face_screen {
	enum face_type type;
	int height;	/* SSD1306: 64 or 32 pixels */
	bool big;	/* big digits (set after face_screen_init, before the start) */
	bool backlight; /* HD44780 */
	bool valid;	/* the screen holds what is recorded here */
	struct face_text text;
	uint8_t frame[FACE_FRAME_MAX];
};

/* A screen of that type (height: SSD1306 only, 64 or 32).  Nothing is known to be shown. */
void face_screen_init(struct face_screen *s, enum face_type type, int height);
/* The messages that set the controller up and clear it; afterwards the screen is blank and
 * valid. */
void face_screen_start(struct face_screen *s, struct face_out *out);
/* The messages that change what the screen shows to `text`: only what differs (nothing when
 * the text is the same).  The caller marks the screen invalid when sending them failed. */
void face_screen_update(struct face_screen *s, const struct face_text *text, struct face_out *out);

/* ------------------------------------------------------------------ the drivers' parts */

/* PCF8574 backpack: P0 RS, P1 RW, P2 E, P3 backlight, P4-P7 D4-D7. */
#define HD44780_RS	  0x01
#define HD44780_E	  0x04
#define HD44780_BACKLIGHT 0x08
/* The 5x8 patterns of the face's glyphs, loaded into CGRAM characters 1..FACE_GLYPHS; in
 * big mode the parts of the big digits, characters 0..7. */
extern const uint8_t hd44780_glyphs[FACE_GLYPHS][8];
extern const uint8_t hd44780_big_parts[8][8];

/* The 5x7 font (columns, bit 0 at the top) of the characters the face uses: space, digits,
 * ':' '.' '-', A-Z and the glyphs; anything else draws as a box.  out: 5 columns. */
void face_font_columns(char c, uint8_t out[5]);
/* Draw the text into an SSD1306 frame (128 columns, height/8 pages of 8 rows, bit 0 on top):
 * each row of text in characters 8 pixels wide and 16 high (the font doubled in height). */
void ssd1306_render(const struct face_text *text, int height, uint8_t *frame);
/* Big digits: each row of text in a band of half the height, its time (cols 8-15) in the font
 * scaled to the largest size that fits beside the mark and label, the mark (col 0) and label
 * (cols 1-7) small at the band's left; the band of the side whose clock runs (its mark
 * FACE_GLYPH_MOVE) in reverse video. */
void ssd1306_render_big(const struct face_text *text, int height, uint8_t *frame);

#endif
