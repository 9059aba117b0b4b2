/* A few SVG primitives for the course's computed diagrams (figures/diagrams.c).  Plain C99.
 * Every number is written with a fixed format, so the same picture gives the same bytes. */
#ifndef SVG_H
#define SVG_H

#include <stdarg.h>
#include <stdio.h>

#define SVG_FONT "Helvetica, Arial, sans-serif"

static inline void svg_begin(FILE *f, int w, int h, const char *title)
{
    fprintf(f, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"%s\">\n", w, h, w, h, SVG_FONT);
    fprintf(f, "<title>%s</title>\n", title);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", w, h);
}

static inline void svg_end(FILE *f) { fprintf(f, "</svg>\n"); }

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
