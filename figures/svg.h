/* A few SVG primitives for the course's computed diagrams (figures/diagrams.c).  Plain C99.
 * Every number is written with a fixed format, so the same picture gives the same bytes. */
#ifndef SVG_H
#define SVG_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SVG_FONT "Helvetica, Arial, sans-serif"

/* How wide a text is drawn, so that a layout can make room for it: for each of ASCII 32..126, in
 * 1/1000 em, the larger advance width of DejaVu Sans (Book; Bold), the font Helvetica and Arial fall back
 * to where neither is installed (most Linux systems, cairosvg), and of Helvetica (Adobe's metrics, which
 * Arial and Liberation Sans share).  A text's width from it is at least its width in any of these fonts
 * (but for kerning, left out: it mostly narrows a text). */
static const short svg_advance[2][95] = {
    {318, 401, 460, 838, 637, 951, 780, 275, 391, 391, 500, 838, 318, 361, 318, 337, 637, 637, 637,
     637, 637, 637, 637, 637, 637, 637, 337, 337, 838, 838, 838, 556, 1015, 685, 687, 722, 771, 667,
     611, 778, 752, 295, 500, 667, 558, 863, 749, 788, 667, 788, 722, 667, 611, 732, 685, 989, 686,
     667, 686, 391, 337, 391, 838, 556, 500, 613, 635, 550, 635, 616, 353, 635, 634, 278, 278, 580,
     278, 975, 634, 612, 635, 635, 412, 521, 393, 634, 592, 818, 592, 592, 525, 637, 337, 637, 838},
    {349, 457, 521, 838, 696, 1002, 873, 307, 458, 458, 523, 838, 380, 416, 380, 366, 696, 696, 696,
     696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 611, 1000, 774, 763, 734, 831, 684,
     684, 821, 837, 373, 556, 775, 638, 996, 837, 851, 733, 851, 771, 721, 683, 813, 774, 1104, 771,
     725, 726, 458, 366, 458, 838, 556, 500, 675, 716, 593, 716, 679, 436, 716, 712, 343, 343, 666,
     343, 1042, 712, 688, 716, 716, 494, 596, 479, 712, 652, 924, 646, 652, 583, 712, 366, 712, 838}};

/* the width of the first n characters of s (all of them if s is shorter) */
static inline double svg_text_width_n(const char *s, size_t n, double size, const char *weight)
{
    const short *adv = svg_advance[strcmp(weight, "bold") == 0];
    double units = 0;
    for (; *s && n > 0; s++, n--) units += (*s >= 32 && *s < 127) ? adv[*s - 32] : 1100;
    return units * size / 1000.0;
}
static inline double svg_text_width(const char *s, double size, const char *weight)
{
    return svg_text_width_n(s, strlen(s), size, weight);
}

/* Where to break s into two lines no wider than maxw: the index of a space, the one after a comma, colon
 * or semicolon if one gives two such lines, else any; of those, the one whose longer line is the
 * shortest.  0 when no space gives two lines that fit. */
static inline size_t svg_split(const char *s, double size, const char *weight, double maxw)
{
    size_t i, best = 0;
    int pass;
    for (pass = 0; pass < 2 && best == 0; pass++) {   /* after punctuation, then anywhere */
        double best_w = maxw;
        for (i = 1; s[i]; i++) {
            double wl, wr;
            if (s[i] != ' ' || (pass == 0 && !strchr(",:;", s[i - 1]))) continue;
            wl = svg_text_width_n(s, i, size, weight);
            wr = svg_text_width(s + i + 1, size, weight);
            if ((wl > wr ? wl : wr) <= best_w) {
                best_w = wl > wr ? wl : wr;
                best = i;
            }
        }
    }
    return best;
}

/* The canvas of the picture being written, and how many texts svg_text found running past it (by
 * svg_text_width, SVG_MARGIN px kept clear at each side): svg_finish reports them. */
#define SVG_MARGIN 4.0
static double svg_canvas_w, svg_canvas_h;
static int svg_texts_outside;

static inline void svg_begin(FILE *f, int w, int h, const char *title)
{
    fprintf(f, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"%s\">\n", w, h, w, h, SVG_FONT);
    fprintf(f, "<title>%s</title>\n", title);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", w, h);
    svg_canvas_w = w;
    svg_canvas_h = h;
    svg_texts_outside = 0;
}

/* Ends the picture and closes its file: 0, or 1 when the file did not close or a text ran past the
 * canvas (each such text was reported on stderr). */
static inline int svg_finish(FILE *f)
{
    fprintf(f, "</svg>\n");
    return (fclose(f) != 0) | (svg_texts_outside != 0);
}

/* fill and stroke are SVG colours ("none" for none); sw is the stroke width */
static inline void svg_rect(FILE *f, double x, double y, double w, double h, const char *fill,
                            const char *stroke, double sw)
{
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"", x, y, w, h, fill);
    if (stroke && stroke[0] && sw > 0) fprintf(f, " stroke=\"%s\" stroke-width=\"%.1f\"", stroke, sw);
    fprintf(f, "/>\n");
}

static inline void svg_line(FILE *f, double x1, double y1, double x2, double y2, const char *stroke, double sw)
{
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>\n",
            x1, y1, x2, y2, stroke, sw);
}

/* text at (x, y) (the baseline); anchor "start", "middle" or "end"; weight "normal" or "bold".
 * The formatted text is escaped for XML. */
static inline void svg_text(FILE *f, double x, double y, double size, const char *anchor, const char *weight,
                            const char *fill, const char *fmt, ...)
{
    char buf[512];
    const char *p;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    {   /* the canvas check: the text's extent from its anchor and width, its height about the size */
        double tw = svg_text_width(buf, size, weight);
        double x0 = strcmp(anchor, "middle") == 0 ? x - tw / 2 : strcmp(anchor, "end") == 0 ? x - tw : x;
        if (x0 < SVG_MARGIN || x0 + tw > svg_canvas_w - SVG_MARGIN || y - 0.76 * size < 0 || y + 0.24 * size > svg_canvas_h) {
            fprintf(stderr, "svg: text at x %.1f to %.1f, y %.1f runs past the %.0f x %.0f canvas: %s\n", x0, x0 + tw, y,
                    svg_canvas_w, svg_canvas_h, buf);
            svg_texts_outside++;
        }
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"%s\" font-weight=\"%s\" fill=\"%s\">",
            x, y, size, anchor, weight, fill);
    for (p = buf; *p; p++) {
        switch (*p) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        default: fputc(*p, f);
        }
    }
    fprintf(f, "</text>\n");
}

/* a group whose attributes (fill, font-size, text-anchor ...) its elements inherit: keeps large
 * diagrams small */
static inline void svg_group_begin(FILE *f, const char *attributes) { fprintf(f, "<g %s>\n", attributes); }
static inline void svg_group_end(FILE *f) { fprintf(f, "</g>\n"); }

/* a bare rectangle or number inside a group that sets the rest */
static inline void svg_cell(FILE *f, double x, double y, double w, double h, const char *fill)
{
    fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"%s\"/>\n", x, y, w, h, fill);
}
static inline void svg_number(FILE *f, double x, double y, int n)
{
    fprintf(f, "<text x=\"%g\" y=\"%g\">%d</text>\n", x, y, n);
}

/* "#rrggbb" of hue h (degrees), saturation s and lightness l (0..1), into out[8] */
static inline void svg_hsl(double h, double s, double l, char out[8])
{
    double c = (1.0 - (2.0 * l - 1.0 < 0 ? 1.0 - 2.0 * l : 2.0 * l - 1.0)) * s;
    double hp = h / 60.0, x, r = 0, g = 0, b = 0, m;
    int k = (int)hp;
    double frac = hp - 2.0 * (int)(hp / 2.0);
    x = c * (1.0 - (frac - 1.0 < 0 ? 1.0 - frac : frac - 1.0));
    switch (k % 6) {
    case 0: r = c; g = x; break;
    case 1: r = x; g = c; break;
    case 2: g = c; b = x; break;
    case 3: g = x; b = c; break;
    case 4: r = x; b = c; break;
    default: r = c; b = x; break;
    }
    m = l - c / 2.0;
    sprintf(out, "#%02x%02x%02x", (int)((r + m) * 255.0 + 0.5), (int)((g + m) * 255.0 + 0.5),
            (int)((b + m) * 255.0 + 0.5));
}

#endif
