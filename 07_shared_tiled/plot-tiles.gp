# Lesson 07's figure (part 1): the Key result's ladder, in % of cudaMemcpy D2D of the same bytes
# (8192 x 8192 floats).  For each of the three padded tile shapes, three bars: its copy twin and its
# `+sync` twin (experiment 4, rows "copy <shape>" and "copy <shape> +sync") and the tile itself
# (experiment 3, the padded row of that shape), each labelled with its % and the step from the bar
# above (the barrier: +sync against the copy twin; the corner turn: the tile against +sync).  Below,
# for reference and in grey: NaiveRow 32x32 (experiment 1) and the unpadded tile32 thr32x8 [32][32]
# (experiment 2, with its smem ways).  Every % is those rows' pct_d2d (column 10); each shape's
# heading gives its loads a thread (the twin's elem/thread) and its block's threads (from its name).
# Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# needs: mistake banks shapes twins
eval svg(900, 640)
@footer

pct(e, k) = field(all, e, k, 10)
array SHAPE[3] = ['tile32 thr32x8', 'tile32 thr32x32', 'tile64 thr64x4']
array TILE[3]  = ['tile32 thr32x8 [32][33]', 'tile32 thr32x32 [32][33]', 'tile64 thr64x4 [64][65]']
# "tile32 thr32x8" -> 32 * 8 threads a block
thr_x(s) = real(substr(s, strstrt(s, 'thr') + 3, strstrt(s, 'thr') + strstrt(substr(s, strstrt(s, 'thr'), strlen(s)), 'x') - 2) . ' ')
thr_y(s) = real(substr(s, strstrt(s, 'thr') + strstrt(substr(s, strstrt(s, 'thr'), strlen(s)), 'x'), strlen(s)) . ' ')
step(d, what) = sprintf('%s: %+.1f points', what, d)

C_TWIN = 0xb9d3ea     # the copy twin: no corner turn, no barrier
C_SYNC = 0x6a9fd0     # the +sync twin: the barrier, no corner turn
C_TILE = 0x1f6fb4     # the tile: the barrier and the corner turn (C_GOOD)
C_REF  = 0xbdbdbd     # the references

# one line a bar: y, % of cudaMemcpy, colour, tick label, bar label, label colour
set print $D
y = 0
do for [i = 1:3] {
    s = SHAPE[i]
    a = pct('twins', 'copy ' . s)
    b = pct('twins', 'copy ' . s . ' +sync')
    c = pct('shapes', TILE[i])
    lpt = field(all, 'twins', 'copy ' . s, 13)
    set label 10 + i sprintf('%s: %.0f load%s a thread, %.0f-thread blocks', s, lpt, lpt == 1 ? '' : 's', thr_x(s) * thr_y(s)) \
        at first 0, first y - 0.35 left offset 0.5, 0 font ',12'
    print sprintf("%g\t%g\t%d\tcopy %s\t%.1f\t%d", y - 1, a, C_TWIN, s, a, 0x222222)
    print sprintf("%g\t%g\t%d\tcopy %s +sync\t%.1f   %s\t%d", y - 2, b, C_SYNC, s, b, step(b - a, 'barrier'), 0x222222)
    print sprintf("%g\t%g\t%d\t%s\t%.1f   %s\t%d", y - 3, c, C_TILE, TILE[i], c, step(c - b, 'corner turn'), C_TILE)
    y = y - 4.3
}
n = pct('mistake', 'NaiveRow 32x32')
u = pct('banks', 'tile32 thr32x8 [32][32]')
ways = field(all, 'banks', 'tile32 thr32x8 [32][32]', 13)
set label 20 'for reference' at first 0, first y - 0.35 left offset 0.5, 0 font ',12' textcolor rgb '#666666'
print sprintf("%g\t%g\t%d\tNaiveRow 32x32\t%.1f   stores columns, no shared memory\t%d", y - 1, n, C_REF, n, 0x555555)
print sprintf("%g\t%g\t%d\ttile32 thr32x8 [32][32]\t%.1f   the tile unpadded: %.0f-way bank conflicts\t%d", y - 2, u, C_REF, u, ways, 0x555555)
unset print
ybot = y - 2

bw = 0.36
set style textbox opaque noborder margins 0.5, 0.5
set title "Lesson 07: what turning the corner costs, % of cudaMemcpy D2D (8192 x 8192 floats)\nfor each tile shape: copy twin -> +sync twin (adds the barrier) -> the tile (adds the corner turn);\neach step in points against the bar above it" font ',12'
set xlabel "% of cudaMemcpy D2D of the same bytes"
set xrange [0:138]
set xtics 0, 20, 100
set yrange [ybot - 0.7:0.3]
set ytics nomirror scale 0 font ',11'
set grid x noy
set lmargin 27
set rmargin 2
set arrow 1 from 100, graph 0 to 100, graph 1 nohead back ls 5
set label 1 "cudaMemcpy D2D = 100" at 100, graph 1 center offset 0, 0.6 textcolor rgb C_COPY font ',10'
set key at screen 0.5, screen 0.075 center top Left reverse horizontal samplen 1.2 width 1 font ',10' maxrows 1
set bmargin 6.5
plot $D using (0):1:(0):2:($1 - bw):($1 + bw):3:ytic(4) with boxxyerror fs solid 1 noborder lc rgb variable, \
     $D using 2:1:5:6 with labels left boxed offset 0.5, 0 font ',10' tc rgb variable, \
     NaN with boxes fs solid 1 noborder lc rgb C_TWIN title 'copy twin', \
     NaN with boxes fs solid 1 noborder lc rgb C_SYNC title '+sync twin (the barrier)', \
     NaN with boxes fs solid 1 noborder lc rgb C_TILE title 'padded tile (the corner turn)', \
     NaN with boxes fs solid 1 noborder lc rgb C_REF title 'for reference'
