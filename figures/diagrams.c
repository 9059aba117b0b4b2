/* The course's computed diagrams, as SVG: what one warp touches, drawn from the same C models the
 * lessons print from and their unit tests check (no hand-drawn picture can drift from them).
 *
 *   diagrams LESSON OUTDIR     writes the diagrams of LESSON (a lesson folder name) into OUTDIR;
 *                              a lesson without diagrams gets none (exit 0)
 *
 *   02_coalescing/warp-sectors.svg       copyRow / copyCol (lesson 02's 2D copies,
 *                                        KIND_COPY_ROW / KIND_COPY_COL of 05's sectors.h)
 *   05_transpose_naive/warp-sectors.svg  NaiveRow's load (input) and store (output)
 *       both for warps of 32x1, 8x4 and 4x8 threads (blocks with bx = 32, 8, 4): every float the
 *       32 lanes touch, and every 32-byte sector the memory must move for them.  The sector counts
 *       written on the picture are those of 05_transpose_naive/sectors.h (warp_sectors); the
 *       program stops if its own drawing disagrees with them.
 *   06_unroll_diagonal/block-order.svg   which block takes which tile of an 8 x 4 grid of tiles in
 *                                        row-major, column-major, diagonal and grouped order (groups of
 *                                        2 x 2 tiles on so small a grid) and with Tan Sheng's square-only
 *                                        mapping, from
 *                                        06_unroll_diagonal/block_order.h (tests/test_diagonal.c)
 *   07_shared_tiled/banks.svg            the bank of every element of a 32 x 32 tile of floats
 *                                        stored as [32][32] and as [32][33]: bank = word % SMEM_BANKS,
 *                                        and the passes of a row write and a column read from
 *                                        07_shared_tiled/banks.h (tile_smem_wavefronts).
 *   08_register_tiles/swizzle-banks.svg the slots 8 lanes of the swizzled tile's float4 store hit in
 *                                        float4 s[64][16], unswizzled (u = a) and swizzled
 *                                        (u = a ^ sw(c)), with the passes of the course's 16-byte model;
 *                                        the slots mirror transpose_tile64_f4_swizzle (kernels.cuh), the
 *                                        passes are checked against banks.h's smem_wavefronts.
 *
 * Room for the words: the warp-sector figures size their columns and canvas by their texts' widths
 * (svg_text_width of figures/svg.h, an upper bound for the fonts the SVG names) and put a footprint's
 * caption on two lines; lesson 08's title goes on two lines where it is wider than the panels.  Every
 * diagram's texts are checked against its canvas: one that runs past it stops the program (svg_finish
 * counts them), so plot.sh keeps the committed diagram and says why.
 *
 * Built by common/plot.sh:  cc -std=c99 -Wall -Wextra -Werror -pedantic -I<course root> figures/diagrams.c
 * The model functions used: warp_sectors() and kernel_kind_t of 05_transpose_naive/sectors.h;
 * tile_smem_wavefronts(), smem_wavefronts(), SMEM_BANKS, PHASE_STORE_ROW, PHASE_LOAD_COLUMN of
 * 07_shared_tiled/banks.h;
 * block_order_row_major(), block_order_column_major(), block_order_diagonal(), block_order_grouped()
 * of 06_unroll_diagonal/block_order.h. */
#include "05_transpose_naive/sectors.h"
#include "06_unroll_diagonal/block_order.h"
#include "07_shared_tiled/banks.h"
#include "figures/svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- warp footprints ------------------------------------------------------------------------- */
#define LANES 32
#define FLOATS_PER_SECTOR 8   /* 32-byte sectors of 4-byte floats */
#define FLOATS_PER_LINE 32    /* 128-byte lines (lesson 02's line model) */
#define BIG 8192              /* the matrix is wide: different rows never share a sector */

typedef struct {
    int r[LANES], c[LANES];   /* the element lane l touches: row r[l], column c[l] of the matrix drawn */
    int rows, cols;           /* the window drawn: rows x cols floats from (0, 0) */
    int sectors;              /* distinct 32-byte sectors */
    int lines;                /* distinct 128-byte lines */
} footprint_t;

/* Lane l is thread (l % bx, l / bx) of a bx x (32 / bx) block, as the hardware forms warps.  Thread
 * (tx, ty) works on input element (r, c) = (ty, tx) for the _ROW kinds, (tx, ty) for the _COL kinds
 * (sectors.h); it reads in[r][c] and writes out[r][c] (copies) or out[c][r] (transposes). */
/* Distinct pieces of `floats` floats the lanes of f touch: rows of the drawing start on a line (the
 * matrix is BIG wide), so a piece is a row and a run of `floats` columns (sectors.h counts them). */
static int footprint_distinct(const footprint_t *f, int floats)
{
    size_t piece[LANES];
    int l;
    for (l = 0; l < LANES; l++) piece[l] = (size_t)f->r[l] * BIG + (size_t)(f->c[l] / floats);
    return sectors_distinct(piece, LANES);
}

static footprint_t footprint(kernel_kind_t kind, int bx, int store)
{
    footprint_t f;
    int l, cols_x = (kind == KIND_COPY_ROW || kind == KIND_NAIVE_ROW);
    int transposes = (kind == KIND_NAIVE_ROW || kind == KIND_NAIVE_COL);
    memset(&f, 0, sizeof f);
    for (l = 0; l < LANES; l++) {
        int tx = l % bx, ty = l / bx;
        int r = cols_x ? ty : tx, c = cols_x ? tx : ty;
        f.r[l] = (store && transposes) ? c : r;
        f.c[l] = (store && transposes) ? r : c;
        if (f.r[l] + 1 > f.rows) f.rows = f.r[l] + 1;
        if (f.c[l] + 1 > f.cols) f.cols = f.c[l] + 1;
    }
    f.cols = (f.cols + FLOATS_PER_SECTOR - 1) / FLOATS_PER_SECTOR * FLOATS_PER_SECTOR;
    f.sectors = footprint_distinct(&f, FLOATS_PER_SECTOR);
    f.lines = footprint_distinct(&f, FLOATS_PER_LINE);
    return f;
}

/* the model's count for the same warp (sectors.h), which the drawing must match */
static int model_sectors(kernel_kind_t kind, int bx, int store)
{
    warp_sectors_t w = warp_sectors(kind, bx, LANES / bx, BIG, BIG);
    return (int)(store ? w.st : w.ld);
}

#define CELL 9.0

static void lane_colour(int l, char out[8])
{
    /* lane 0 light blue .. lane 31 dark blue */
    double t = l / 31.0;
    int r = (int)(0x9e + t * (0x08 - 0x9e) + 0.5), g = (int)(0xca + t * (0x30 - 0xca) + 0.5),
        b = (int)(0xe1 + t * (0x6b - 0xe1) + 0.5);
    sprintf(out, "#%02x%02x%02x", r, g, b);
}

static void draw_footprint(FILE *o, const footprint_t *f, double x0, double y0)
{
    int r, c, l;
    char col[8];
    /* sectors moved: every sector a lane touches, all 8 floats of it */
    for (l = 0; l < LANES; l++) {
        int s0 = f->c[l] / FLOATS_PER_SECTOR * FLOATS_PER_SECTOR;
        svg_rect(o, x0 + s0 * CELL, y0 + f->r[l] * CELL, FLOATS_PER_SECTOR * CELL, CELL, "#fdd0a2", NULL, 0);
    }
    /* the floats the lanes use */
    for (l = 0; l < LANES; l++) {
        lane_colour(l, col);
        svg_rect(o, x0 + f->c[l] * CELL, y0 + f->r[l] * CELL, CELL, CELL, col, NULL, 0);
    }
    /* the grid: thin lines between floats, thicker ones between sectors */
    for (c = 0; c <= f->cols; c++)
        svg_line(o, x0 + c * CELL, y0, x0 + c * CELL, y0 + f->rows * CELL,
                 c % FLOATS_PER_SECTOR ? "#e3e3e3" : "#9a9a9a", c % FLOATS_PER_SECTOR ? 0.5 : 1.0);
    for (r = 0; r <= f->rows; r++)
        svg_line(o, x0, y0 + r * CELL, x0 + f->cols * CELL, y0 + r * CELL, "#c8c8c8", 0.6);
    /* the sectors moved, outlined */
    for (l = 0; l < LANES; l++) {
        int k, s0 = f->c[l] / FLOATS_PER_SECTOR * FLOATS_PER_SECTOR;
        for (k = 0; k < l; k++)
            if (f->r[k] == f->r[l] && f->c[k] / FLOATS_PER_SECTOR == f->c[l] / FLOATS_PER_SECTOR) break;
        if (k == l) svg_rect(o, x0 + s0 * CELL, y0 + f->r[l] * CELL, FLOATS_PER_SECTOR * CELL, CELL, "none", "#d94801", 1.2);
    }
}

typedef struct {
    const char *name;       /* column heading */
    kernel_kind_t kind;
    int store;
} side_t;

/* "100%", "50%", "12.5%": the share of the bytes moved that are used, whole where it is whole, else to
 * one decimal (32 sectors for 128 B used is 12.5%, as the lesson pages say, not a rounded 12%) */
static void share_percent(char out[24], int used, int moved)
{
    if (100 * used % moved == 0)
        sprintf(out, "%d%%", 100 * used / moved);
    else
        sprintf(out, "%.1f%%", 100.0 * used / moved);
}

static double wider(double a, double b) { return a > b ? a : b; }

/* the labels left of each row of footprints: size, weight and baseline below the row's top */
#define ROW_LABELS 5
static const double row_label_size[ROW_LABELS] = {12.5, 10.5, 10.5, 10.5, 11};
static const char *const row_label_weight[ROW_LABELS] = {"bold", "normal", "normal", "normal", "bold"};
static const double row_label_y[ROW_LABELS] = {12, 28, 42, 56, 76};

static int warp_sector_diagram(const char *path, const char *title, const char *subtitle, const side_t *sides,
                               int nsides, int sum_sides, const char *note)
{
    static const int bxs[] = {32, 8, 4};
    static const char *const legend[2] = {"a float a lane uses (lane 0 light .. lane 31 dark)",
                                          "a 32-byte sector (8 floats): moved whole, used or not"};
    footprint_t f[3][2];
    /* under each footprint: two bold lines (the counts; the bytes), then the window drawn */
    char caption[3][2][3][96], label[3][ROW_LABELS][64];
    double colw[2] = {0, 0}, rowh[3] = {0, 0, 0}, step[3], x, y, left = 0, top = 78, capt = 48, gap = 30, w, h,
           legend_x;
    int i, j, k, l, nlabels = sum_sides ? ROW_LABELS : ROW_LABELS - 1;
    FILE *o;
    for (i = 0; i < 3; i++)
        for (j = 0; j < nsides; j++) {
            int model = model_sectors(sides[j].kind, bxs[i], sides[j].store);
            const footprint_t *p = &f[i][j];
            char share[24];
            f[i][j] = footprint(sides[j].kind, bxs[i], sides[j].store);
            if (p->sectors != model) {
                fprintf(stderr, "diagrams: %s, warp %dx%d: the drawing has %d sectors, sectors.h's warp_sectors %d\n",
                        sides[j].name, bxs[i], LANES / bxs[i], p->sectors, model);
                return 1;
            }
            share_percent(share, 128, 32 * p->sectors);
            snprintf(caption[i][j][0], sizeof caption[i][j][0], "%d sectors in %d line%s:", p->sectors, p->lines,
                     p->lines == 1 ? "" : "s");
            snprintf(caption[i][j][1], sizeof caption[i][j][1], "%d B through the caches for 128 B used (%s)",
                     32 * p->sectors, share);
            snprintf(caption[i][j][2], sizeof caption[i][j][2], "%d row%s x %d floats shown", p->rows,
                     p->rows == 1 ? "" : "s", p->cols);
            /* a column is as wide as its widest footprint, caption or heading */
            colw[j] = wider(colw[j], p->cols * CELL);
            colw[j] = wider(colw[j], svg_text_width(caption[i][j][0], 11, "bold"));
            colw[j] = wider(colw[j], svg_text_width(caption[i][j][1], 11, "bold"));
            colw[j] = wider(colw[j], svg_text_width(caption[i][j][2], 10, "normal"));
            colw[j] = wider(colw[j], svg_text_width(sides[j].name, 12.5, "bold"));
            rowh[i] = wider(rowh[i], p->rows * CELL);
        }
    /* the labels left of the rows: the footprints start right of the widest */
    for (i = 0; i < 3; i++) {
        snprintf(label[i][0], sizeof label[i][0], "warp %d x %d", bxs[i], LANES / bxs[i]);
        snprintf(label[i][1], sizeof label[i][1], "blocks %d wide, any height", bxs[i]);
        snprintf(label[i][2], sizeof label[i][2], "lane l: tx = l %% %d,", bxs[i]);
        snprintf(label[i][3], sizeof label[i][3], "ty = l / %d", bxs[i]);
        snprintf(label[i][4], sizeof label[i][4], "load + store: %d sectors", f[i][0].sectors + f[i][1].sectors);
        for (k = 0; k < nlabels; k++)
            left = wider(left, 12 + svg_text_width(label[i][k], row_label_size[k], row_label_weight[k]) + 18);
        /* a row is as tall as its tallest footprint and captions, or its labels */
        step[i] = wider(rowh[i] + capt, row_label_y[nlabels - 1] + 4) + 22;
    }
    legend_x = wider(400, 12 + LANES * 4 + 8 + svg_text_width(legend[0], 10.5, "normal") + 24);
    w = left + colw[0] + (nsides > 1 ? gap + colw[1] : 0) + 20;
    /* the lines across the picture fit it too */
    w = wider(w, 12 + svg_text_width(title, 15, "bold") + 12);
    w = wider(w, 12 + svg_text_width(subtitle, 11.5, "normal") + 12);
    w = wider(w, 12 + svg_text_width(note, 10, "normal") + 12);
    w = wider(w, legend_x + 3 * CELL + 8 + svg_text_width(legend[1], 10.5, "normal") + 12);
    w = ceil(w);
    h = top + step[0] + step[1] + step[2] + 62;
    if (!(o = fopen(path, "w"))) {
        perror(path);
        return 1;
    }
    svg_begin(o, (int)w, (int)h, title);
    svg_text(o, 12, 22, 15, "start", "bold", "#222", "%s", title);
    svg_text(o, 12, 40, 11.5, "start", "normal", "#444", "%s", subtitle);
    for (j = 0, x = left; j < nsides; x += colw[j] + gap, j++)
        svg_text(o, x, top - 10, 12.5, "start", "bold", "#222", "%s", sides[j].name);
    for (i = 0, y = top; i < 3; i++) {
        for (k = 0; k < nlabels; k++)
            svg_text(o, 12, y + row_label_y[k], row_label_size[k], "start", row_label_weight[k],
                     row_label_weight[k][0] == 'b' ? "#222" : "#555", "%s", label[i][k]);
        for (j = 0, x = left; j < nsides; x += colw[j] + gap, j++) {
            const footprint_t *p = &f[i][j];
            const char *colour = 32 * p->sectors > 128 ? "#b33c00" : "#1f4e79";
            double yc = y + p->rows * CELL;
            draw_footprint(o, p, x, y);
            svg_text(o, x, yc + 15, 11, "start", "bold", colour, "%s", caption[i][j][0]);
            svg_text(o, x, yc + 29, 11, "start", "bold", colour, "%s", caption[i][j][1]);
            svg_text(o, x, yc + 43, 10, "start", "normal", "#666", "%s", caption[i][j][2]);
        }
        y += step[i];
    }
    /* legend */
    y = h - 40;
    for (l = 0; l < LANES; l++) {
        char col[8];
        lane_colour(l, col);
        svg_rect(o, 12 + l * 4, y, 4, CELL, col, NULL, 0);
    }
    svg_text(o, 12 + LANES * 4 + 8, y + 8, 10.5, "start", "normal", "#333", "%s", legend[0]);
    svg_rect(o, legend_x, y, 3 * CELL, CELL, "#fdd0a2", "#d94801", 1.2);
    svg_text(o, legend_x + 3 * CELL + 8, y + 8, 10.5, "start", "normal", "#333", "%s", legend[1]);
    svg_text(o, 12, y + 28, 10, "start", "normal", "#666", "%s", note);
    return svg_finish(o);
}

/* ---- shared-memory banks (lesson 07) ---------------------------------------------------------- */
#define TILE 32
#define BCELL 13.0

static void bank_colour(int bank, char out[8]) { svg_hsl(bank * 360.0 / SMEM_BANKS, 0.62, 0.80, out); }

static void draw_tile_banks(FILE *o, int pitch, double x0, double y0)
{
    int r, c;
    char col[8];
    svg_group_begin(o, "stroke=\"#ffffff\" stroke-width=\"0.5\"");
    for (r = 0; r < TILE; r++)
        for (c = 0; c < pitch; c++) {
            bank_colour((int)(((long)r * pitch + c) % SMEM_BANKS), col);
            svg_cell(o, x0 + c * BCELL, y0 + r * BCELL, BCELL, BCELL, c >= TILE ? "#eeeeee" : col);
        }
    svg_group_end(o);
    for (c = 0; c < pitch; c += TILE) {   /* the tile's numbers, then the padding's, in grey */
        svg_group_begin(o, c < TILE ? "font-size=\"6.5\" text-anchor=\"middle\" fill=\"#222222\""
                                    : "font-size=\"6.5\" text-anchor=\"middle\" fill=\"#999999\"");
        for (r = 0; r < TILE; r++) {
            int cc;
            for (cc = c; cc < (c < TILE ? TILE : pitch); cc++)
                svg_number(o, x0 + cc * BCELL + BCELL / 2, y0 + r * BCELL + BCELL * 0.72,
                           (int)(((long)r * pitch + cc) % SMEM_BANKS));
        }
        svg_group_end(o);
    }
    for (c = 0; c < pitch; c += 4)
        svg_text(o, x0 + c * BCELL + BCELL / 2, y0 - 4, 8, "middle", "normal", "#666", "%d", c);
    for (r = 0; r < TILE; r += 4)
        svg_text(o, x0 - 4, y0 + r * BCELL + BCELL * 0.75, 8, "end", "normal", "#666", "%d", r);
    /* phase 1, the first warp (32x8 threads, ty = 0) writes tile[0][0..31]: row 0, dashed */
    fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#1f4e79\" "
               "stroke-width=\"2.0\" stroke-dasharray=\"4,2\"/>\n", x0, y0, TILE * BCELL, BCELL);
    /* phase 2, the first warp reads tile[0..31][0]: column 0, solid */
    svg_rect(o, x0, y0, BCELL, TILE * BCELL, "none", "#b30000", 2.2);
}

static int bank_diagram(const char *path)
{
    static const int pitches[2] = {32, 33};
    double left = 40, top = 100, gap = 60, x, w, h;
    int k;
    FILE *o;
    w = left + (pitches[0] + pitches[1]) * BCELL + gap + 20;
    h = top + TILE * BCELL + 96;
    if (!(o = fopen(path, "w"))) {
        perror(path);
        return 1;
    }
    svg_begin(o, (int)w, (int)h, "The bank of every element of a 32 x 32 tile of floats");
    svg_text(o, 12, 22, 15, "start", "bold", "#222", "Lesson 07: the bank of every element of a 32 x 32 tile of floats");
    svg_text(o, 12, 40, 11.5, "start", "normal", "#444",
             "%d banks of 4-byte words; element [r][c] is word r x pitch + c, in bank (r x pitch + c) %% %d. "
             "Numbers: the bank; grey: padding.", SMEM_BANKS, SMEM_BANKS);
    for (k = 0, x = left; k < 2; x += pitches[k] * BCELL + gap, k++) {
        int p = pitches[k];
        int rw = tile_smem_wavefronts(32, 8, p, PHASE_STORE_ROW);
        int cr = tile_smem_wavefronts(32, 8, p, PHASE_LOAD_COLUMN);
        svg_text(o, x, top - 40, 13, "start", "bold", "#222", "float tile[32][%d]%s", p,
                 p == TILE ? "" : "  (one float of padding per row)");
        svg_text(o, x, top - 24, 11, "start", "normal", cr > 1 ? "#b30000" : "#1f4e79",
                 "column read (red): %d pass%s%s", cr, cr == 1 ? "" : "es",
                 cr > 1 ? ", a 32-way bank conflict" : ", conflict-free");
        draw_tile_banks(o, p, x, top);
        svg_text(o, x, top + TILE * BCELL + 18, 11, "start", "normal", "#1f4e79",
                 "row write (dashed): %d pass%s", rw, rw == 1 ? "" : "es");
    }
    svg_text(o, 12, h - 34, 10.5, "start", "normal", "#444",
             "The transpose's first warp (32 x 8 threads): phase 1 writes tile[ty][tx] = row 0, phase 2 reads tile[tx][ty] = column 0.");
    svg_text(o, 12, h - 18, 10.5, "start", "normal", "#444",
             "Passes from 07_shared_tiled/banks.h (tile_smem_wavefronts): lanes in the same bank at different words wait for each other.");
    return svg_finish(o);
}

/* ---- block order (lesson 06) ------------------------------------------------------------------ */
#define OGX 8u      /* tiles across */
#define OGY 4u      /* tiles down */
#define OWAVE 8u    /* the blocks drawn as starting together: the first OWAVE block numbers */
#define OGROUP 2u   /* the grouped order's squares on this small grid (the kernels use BLOCK_ORDER_GROUP) */
#define OCELL 40.0

/* The orders drawn, in the order of the panels. */
enum { O_ROW_MAJOR, O_COLUMN_MAJOR, O_DIAGONAL, O_GROUPED, N_ORDERS };

/* Draws the gx x gy tiles with the number of the block that takes each in order `mode`; the first
 * OWAVE blocks dark.  Returns how many tiles no block takes (drawn "never": an order that is not a
 * bijection shows, and order_diagram refuses it); *rows and *cols get how many tile rows and columns
 * the first OWAVE blocks work on.  (Tan Sheng's square-only mapping is not drawn: lesson 06's
 * exercise 4 asks what it does, and its In depth shows it.) */
static int draw_order(FILE *o, int mode, double x0, double y0, int *rows, int *cols)
{
    int owner[OGY][OGX], count[OGY][OGX], missing = 0, row_used[OGY] = {0}, col_used[OGX] = {0};
    unsigned b, x, y;
    for (y = 0; y < OGY; y++)
        for (x = 0; x < OGX; x++) owner[y][x] = -1, count[y][x] = 0;
    for (b = 0; b < OGX * OGY; b++) {
        tile_xy_t t = mode == O_ROW_MAJOR      ? block_order_row_major(b, OGX)
                    : mode == O_COLUMN_MAJOR   ? block_order_column_major(b, OGY)
                    : mode == O_DIAGONAL       ? block_order_diagonal(b, OGX, OGY)
                                               : block_order_grouped(b, OGX, OGY, OGROUP);
        if (t.x >= OGX || t.y >= OGY) continue;   /* a tile outside the matrix: nothing written */
        if (owner[t.y][t.x] < 0) owner[t.y][t.x] = (int)b;
        count[t.y][t.x]++;
        if (b < OWAVE) row_used[t.y] = col_used[t.x] = 1;
    }
    for (*rows = 0, y = 0; y < OGY; y++) *rows += row_used[y];
    for (*cols = 0, x = 0; x < OGX; x++) *cols += col_used[x];
    for (y = 0; y < OGY; y++)
        for (x = 0; x < OGX; x++) {
            double cx = x0 + x * OCELL, cy = y0 + y * OCELL;
            int first = owner[y][x] >= 0 && (unsigned)owner[y][x] < OWAVE;
            if (owner[y][x] < 0) {
                missing++;
                svg_rect(o, cx, cy, OCELL, OCELL, "#eeeeee", "#ffffff", 1.0);
                svg_text(o, cx + OCELL / 2, cy + OCELL * 0.62, 10, "middle", "normal", "#b30000", "never");
                continue;
            }
            svg_rect(o, cx, cy, OCELL, OCELL, first ? "#1f6fb4" : "#c6dbef", count[y][x] > 1 ? "#b30000" : "#ffffff",
                     count[y][x] > 1 ? 2.5 : 1.0);
            svg_text(o, cx + OCELL / 2, cy + OCELL * 0.62, 12, "middle", first ? "bold" : "normal",
                     first ? "#ffffff" : "#222222", count[y][x] > 1 ? "%d+" : "%d", owner[y][x]);
        }
    return missing;
}

static int order_diagram(const char *path)
{
    static const char *names[N_ORDERS] = {"row-major: the hardware's order of a 2-D grid",
                                          "column-major: block_order_column_major",
                                          "diagonal order",
                                          "grouped: block_order_grouped, 2 x 2 squares here"};
    static const char *notes[N_ORDERS] = {NULL, "(down the columns of tiles)", NULL, "(the kernels: 8 x 8 squares)"};
    double left = 16, top = 86, gapy = 70, panel_w = OGX * OCELL + 250, panel_h = OGY * OCELL + gapy, w, h;
    int k, missing[N_ORDERS], rows, cols, failed;
    FILE *o;
    w = left * 2 + 2 * panel_w;
    h = top + 2 * panel_h - 20;   /* two rows of two panels */
    if (!(o = fopen(path, "w"))) {
        perror(path);
        return 1;
    }
    svg_begin(o, (int)w, (int)h, "Which block takes which tile");
    svg_text(o, 12, 22, 15, "start", "bold", "#222", "Lesson 06: which block transposes which tile (an %u x %u grid of tiles)",
             OGX, OGY);
    svg_text(o, 12, 40, 11.5, "start", "normal", "#444",
             "Each cell is a tile; its number, the block that takes it. Dark: blocks 0-%u, neighbours in block number (blocks are not promised to start in that order).",
             OWAVE - 1);
    for (k = 0; k < N_ORDERS; k++) {   /* two panels a row: row-major | column-major, diagonal | grouped */
        double x0 = left + (k % 2) * panel_w, y0 = top + (k / 2) * panel_h;
        svg_text(o, x0, y0 - 10, 12.5, "start", "bold", "#222", "%s", names[k]);
        missing[k] = draw_order(o, k, x0, y0, &rows, &cols);
        svg_text(o, x0 + OGX * OCELL + 14, y0 + 18, 11, "start", "normal", missing[k] ? "#b30000" : "#1f4e79",
                 missing[k] ? "%d of %u tiles never written" : "every tile exactly once", missing[k], OGX * OGY);
        svg_text(o, x0 + OGX * OCELL + 14, y0 + 36, 11, "start", "normal", "#444",
                 "blocks 0-%u: %d tile row%s, %d column%s", OWAVE - 1, rows, rows == 1 ? "" : "s", cols, cols == 1 ? "" : "s");
        if (notes[k]) svg_text(o, x0 + OGX * OCELL + 14, y0 + 54, 11, "start", "normal", "#444", "%s", notes[k]);
    }
    svg_text(o, 12, h - 12, 10.5, "start", "normal", "#444",
             "From 06_unroll_diagonal/block_order.h, the functions the kernels call (tests/test_diagonal.c checks them).");
    failed = svg_finish(o);
    /* the model's promise, checked where it is drawn: the four orders of the lesson are bijections */
    for (k = 0; k < N_ORDERS; k++)
        if (missing[k]) {
            fprintf(stderr, "diagrams: block_order.h's %s order misses a tile\n", names[k]);
            return 1;
        }
    return failed;
}

/* ---- the XOR swizzle (lesson 08) -------------------------------------------------------------- */
/* transpose_tile64_f4_swizzle<BAND, SWIZZLE> of 08_register_tiles/kernels.cuh: a block of 256 threads,
 * a shared tile float4 s[64][16] (row c: tile column c, 16 slots of 16 bytes, no pad).  Phase 1: thread
 * t (q = t & 15, a = t >> 4) stores tile column c = 4q + j (j = 0..3) as one float4 at slot
 * u = a ^ sw(c), sw(c) = (c >> 2) & 7, or sw(c) = 0 without the swizzle (SWIZZLE = false). */
#define SWZ_THREADS 256
#define SWZ_SLOTS 16       /* float4 slots in a row of s: 256 bytes, the 32 banks twice */
#define SWZ_POSITIONS 8    /* 16-byte positions in the 32 banks' 128 bytes: 4 banks each */
#define SWZ_PASS_LANES 8   /* the course's model: a 16-byte access is served 8 lanes at a time */
#define SWZ_LANE0 16       /* the lanes drawn: 16 .. 23 of warp 0 (a = 1, q = 0..7) */
#define SWZ_J 0            /* ... storing tile column 4q + 0 */
#define SCELL 24.0

static int swz_sw(int c, int swizzle) { return swizzle ? (c >> 2) & 7 : 0; }

/* phase 1's store of thread t, its j-th: row c of s, slot u */
static void swz_store(int t, int j, int swizzle, int *c, int *u)
{
    int q = t & 15, a = t >> 4;
    *c = 4 * q + j;
    *u = a ^ swz_sw(*c, swizzle);
}

/* The course's model: 8 lanes' 16-byte accesses take one pass per distinct address at their most
 * crowded 16-byte position (slot u sits at position u & 7: a row of s starts at bank 0).  Lanes
 * t0 .. t0 + 7, store j. */
static int swz_passes(int t0, int j, int swizzle)
{
    int c[SWZ_PASS_LANES], u[SWZ_PASS_LANES], l, k, p, worst = 0;
    for (l = 0; l < SWZ_PASS_LANES; l++) swz_store(t0 + l, j, swizzle, &c[l], &u[l]);
    for (p = 0; p < SWZ_POSITIONS; p++) {
        int distinct = 0;
        for (l = 0; l < SWZ_PASS_LANES; l++) {
            if ((u[l] & 7) != p) continue;
            for (k = 0; k < l; k++)
                if (c[k] == c[l] && u[k] == u[l]) break;
            distinct += (k == l);
        }
        if (distinct > worst) worst = distinct;
    }
    return worst;
}

/* The same 8 lanes as 32 four-byte words, counted by lesson 07's bank model (banks.h): the two must
 * agree. */
static int swz_passes_banks(int t0, int j, int swizzle)
{
    long word[4 * SWZ_PASS_LANES];
    int l, k, c, u;
    for (l = 0; l < SWZ_PASS_LANES; l++) {
        swz_store(t0 + l, j, swizzle, &c, &u);
        for (k = 0; k < 4; k++) word[4 * l + k] = ((long)c * SWZ_SLOTS + u) * 4 + k;
    }
    return smem_wavefronts(word, 4 * SWZ_PASS_LANES);
}

static void position_colour(int p, double light, char out[8])
{
    /* the hue of its 4 banks in banks.svg (bank_colour), lighter for the background */
    svg_hsl((4 * p + 1.5) * 360.0 / SMEM_BANKS, 0.62, light, out);
}

static void draw_swizzle_panel(FILE *o, int swizzle, double x0, double y0)
{
    int l, p, s, r, c, u;
    char col[8];
    /* the header: the 32 banks' 128 bytes twice, 8 positions of 4 banks each */
    for (s = 0; s < SWZ_SLOTS; s += SWZ_POSITIONS)
        svg_text(o, x0 + (s + SWZ_POSITIONS / 2) * SCELL, y0 - 44, 9.5, "middle", "normal", "#666",
                 "bytes %d-%d of the row", s * 16, (s + SWZ_POSITIONS) * 16 - 1);
    for (s = 0; s < SWZ_SLOTS; s++) {
        p = s & 7;
        position_colour(p, 0.80, col);
        svg_rect(o, x0 + s * SCELL, y0 - 36, SCELL, 13, col, "#ffffff", 0.5);
        svg_text(o, x0 + s * SCELL + SCELL / 2, y0 - 26.5, 7.5, "middle", "normal", "#222", "%d-%d", 4 * p, 4 * p + 3);
        svg_text(o, x0 + s * SCELL + SCELL / 2, y0 - 5, 9, "middle", "normal", "#666", "%d", s);
    }
    svg_text(o, x0 - 6, y0 - 26.5, 9, "end", "normal", "#666", "banks");
    svg_text(o, x0 - 6, y0 - 5, 9, "end", "normal", "#666", "slot u");
    /* the rows the 8 lanes write: every slot tinted with its position's colour */
    for (l = 0; l < SWZ_PASS_LANES; l++) {
        swz_store(SWZ_LANE0 + l, SWZ_J, swizzle, &c, &u);
        r = l;
        svg_text(o, x0 - 6, y0 + r * SCELL + SCELL * 0.66, 9.5, "end", "normal", "#666", "c = %d", c);
        for (s = 0; s < SWZ_SLOTS; s++) {
            position_colour(s & 7, 0.95, col);
            svg_rect(o, x0 + s * SCELL, y0 + r * SCELL, SCELL, SCELL, col, "#ffffff", 0.8);
        }
    }
    /* the lanes: each in the slot it stores to, in its position's colour */
    for (l = 0; l < SWZ_PASS_LANES; l++) {
        swz_store(SWZ_LANE0 + l, SWZ_J, swizzle, &c, &u);
        position_colour(u & 7, 0.72, col);
        svg_rect(o, x0 + u * SCELL + 1, y0 + l * SCELL + 1, SCELL - 2, SCELL - 2, col, "#333333", 1.0);
        svg_text(o, x0 + u * SCELL + SCELL / 2, y0 + l * SCELL + SCELL * 0.68, 10, "middle", "bold", "#111",
                 "%d", SWZ_LANE0 + l);
    }
    /* the boundary between the two bank rows of a row of s */
    svg_line(o, x0 + SWZ_POSITIONS * SCELL, y0 - 36, x0 + SWZ_POSITIONS * SCELL, y0 + SWZ_PASS_LANES * SCELL,
             "#666666", 1.2);
}

static int swizzle_diagram(const char *path)
{
    static const char *heads[2] = {"unswizzled: u = a  (tile64 f4 no swizzle)",
                                   "swizzled: u = a ^ sw(c), sw(c) = (c >> 2) & 7"};
    static const char *title =
        "Lesson 08: the XOR swizzle, 8 lanes of one warp's phase 1 float4 store into float4 s[64][16] (the course's model)";
    double left = 62, top = 142, gap = 74, panel_w = SWZ_SLOTS * SCELL, x, w, h, dy;
    int k, t0, j, passes[2], c, u;
    size_t cut;
    FILE *o;
    /* the model's counts, for every 8 lanes of the block and every j: all alike, or the caption's
     * "every 8 lanes" would not hold; and lesson 07's bank model must agree with each */
    for (k = 0; k < 2; k++) {
        passes[k] = swz_passes(SWZ_LANE0, SWZ_J, k);
        for (t0 = 0; t0 < SWZ_THREADS; t0 += SWZ_PASS_LANES)
            for (j = 0; j < 4; j++) {
                int m = swz_passes(t0, j, k), b = swz_passes_banks(t0, j, k);
                if (m != passes[k] || b != m) {
                    fprintf(stderr, "diagrams: swizzle %d, lanes %d-%d, j = %d: %d passes (banks.h: %d), the figure says %d\n",
                            k, t0, t0 + SWZ_PASS_LANES - 1, j, m, b, passes[k]);
                    return 1;
                }
            }
    }
    w = left + 2 * panel_w + gap + 20;
    /* a title wider than the panels goes on two lines (svg_split), the rest 18 px lower */
    cut = 12 + svg_text_width(title, 15, "bold") + 12 > w ? svg_split(title, 15, "bold", w - 24) : 0;
    dy = cut ? 18 : 0;
    top += dy;
    h = top + SWZ_PASS_LANES * SCELL + 100;
    if (!(o = fopen(path, "w"))) {
        perror(path);
        return 1;
    }
    svg_begin(o, (int)w, (int)h, "The XOR swizzle: 8 lanes of a float4 store into float4 s[64][16]");
    if (cut) {
        svg_text(o, 12, 22, 15, "start", "bold", "#222", "%.*s", (int)cut, title);
        svg_text(o, 12, 22 + dy, 15, "start", "bold", "#222", "%s", title + cut + 1);
    } else
        svg_text(o, 12, 22, 15, "start", "bold", "#222", "%s", title);
    svg_text(o, 12, 40 + dy, 11.5, "start", "normal", "#444",
             "Lanes %d-%d of a block's first warp (t = %d..%d: a = t >> 4 = %d, q = t & 15 = 0..7) store tile column c = 4q + %d at slot u of row c.",
             SWZ_LANE0, SWZ_LANE0 + SWZ_PASS_LANES - 1, SWZ_LANE0, SWZ_LANE0 + SWZ_PASS_LANES - 1, SWZ_LANE0 >> 4, SWZ_J);
    svg_text(o, 12, 56 + dy, 11.5, "start", "normal", "#444",
             "A row of s is 16 slots of 16 bytes: the 32 banks twice, so slot u sits at position u & 7 (4 banks). Numbers: the lanes.");
    for (k = 0, x = left; k < 2; x += panel_w + gap, k++) {
        svg_text(o, x, top - 62, 12.5, "start", "bold", "#222", "%s", heads[k]);
        draw_swizzle_panel(o, k, x, top);
        swz_store(SWZ_LANE0, SWZ_J, k, &c, &u);   /* the position of the first lane drawn */
        if (passes[k] > 1)
            svg_text(o, x, top + SWZ_PASS_LANES * SCELL + 18, 11, "start", "bold", "#b30000",
                     "%d lanes on one position (banks %d-%d): %d passes, a %d-way conflict", SWZ_PASS_LANES,
                     4 * (u & 7), 4 * (u & 7) + 3, passes[k], passes[k]);
        else
            svg_text(o, x, top + SWZ_PASS_LANES * SCELL + 18, 11, "start", "bold", "#1f4e79",
                     "%d lanes on %d positions (all %d banks): %d pass, conflict-free", SWZ_PASS_LANES, SWZ_POSITIONS,
                     SMEM_BANKS, passes[k]);
    }
    svg_text(o, 12, h - 50, 10.5, "start", "normal", "#444",
             "Every 8 lanes of the block (q = 0..7 or 8..15) count the same at each of their 4 stores (j = 0..3), checked when drawn; "
             "the slots: transpose_tile64_f4_swizzle, kernels.cuh.");
    svg_text(o, 12, h - 34, 10.5, "start", "normal", "#444",
             "The course's model, not NVIDIA's: NVIDIA documents 4-byte banks only; here a 16-byte access is served 8 lanes at a time, "
             "one pass if they hit 8 different positions.");
    svg_text(o, 12, h - 18, 10.5, "start", "normal", "#444",
             "The passes agree with 07_shared_tiled/banks.h (smem_wavefronts) on the 8 lanes' 32 words.");
    return svg_finish(o);
}

/* The warp-sector figures: one per lesson that draws one, two sides each. */
typedef struct {
    const char *lesson, *title, *subtitle;
    side_t sides[2];
    int sum_sides;   /* warp_sector_diagram's: 1 when a table row adds the two sides */
    const char *note;
} sector_figure_t;

static const sector_figure_t SECTOR_FIGURES[] = {
    {"02_coalescing", "Lesson 02: the sectors and lines one warp instruction touches",
     "A 2D copy of a row-major matrix, threadIdx.x along a row or along a column (the lesson's 32 x 8 "
     "blocks: the top row). Each cell is a float.",
     {{"copyRow (load = store)", KIND_COPY_ROW, 0}, {"copyCol (load = store)", KIND_COPY_COL, 0}}, 0,
     "Sector and line counts: computed from the addresses (the course's sector and line models), not "
     "measured; make profile measures the sectors as sectors per request."},
    {"05_transpose_naive", "Lesson 05: the sectors and lines one warp instruction of a naive transpose touches",
     "NaiveRow reads in[r][c] and writes out[c][r]; NaiveCol swaps the two pictures "
     "(its load is the right one, its store the left one).",
     {{"NaiveRow's load: input rows", KIND_NAIVE_ROW, 0}, {"NaiveRow's store: output columns", KIND_NAIVE_ROW, 1}}, 1,
     "Sector counts: 05_transpose_naive/sectors.h (warp_sectors), the column "
     "\"ld+st sect\" of the block-shape table adds the two sides; lines: 128-byte lines, counted from the addresses."},
};

int main(int argc, char **argv)
{
    char path[4096];
    const char *lesson, *dir;
    int k;
    if (argc != 3) {
        fprintf(stderr, "usage: diagrams LESSON OUTDIR\n");
        return 2;
    }
    lesson = argv[1];
    dir = argv[2];
    for (k = 0; k < (int)(sizeof SECTOR_FIGURES / sizeof SECTOR_FIGURES[0]); k++) {
        const sector_figure_t *f = &SECTOR_FIGURES[k];
        if (strcmp(lesson, f->lesson) != 0) continue;
        snprintf(path, sizeof path, "%s/warp-sectors.svg", dir);
        return warp_sector_diagram(path, f->title, f->subtitle, f->sides, 2, f->sum_sides, f->note);
    }
    if (strcmp(lesson, "06_unroll_diagonal") == 0) {
        snprintf(path, sizeof path, "%s/block-order.svg", dir);
        return order_diagram(path);
    }
    if (strcmp(lesson, "07_shared_tiled") == 0) {
        snprintf(path, sizeof path, "%s/banks.svg", dir);
        return bank_diagram(path);
    }
    if (strcmp(lesson, "08_register_tiles") == 0) {
        snprintf(path, sizeof path, "%s/swizzle-banks.svg", dir);
        return swizzle_diagram(path);
    }
    return 0;
}
