# Lesson 02's figure: every kernel against the copy (GB/s), coalesced in blue and strided in orange,
# and the naive product's two thread mappings (GFLOP/s).  Drawn by `make plot` (common/plot.sh).
# needs: saxpy strip_sums copy2d matmul
eval svg(900, 440)
@footer

strided(k) = (k eq 'sum_strips_lanes_rows_apart' || k eq 'copyCol' || k eq 'matmul_x_along_col')
colour(k) = (k eq 'cudaMemcpy D2D' ? 0x2e8b57 : strided(k) ? 0xd95f02 : 0x1f6fb4)
bw = 0.34

set multiplot title "Lesson 02: the same bytes, coalesced or a row apart" font ',13'
# ---- left: GB/s against the copy ----
b = rows(csv, 'saxpy|strip_sums|copy2d')
stats b using 9 nooutput
n = STATS_records
d2d = field(csv, 'saxpy', 'cudaMemcpy D2D', 9)
set size 0.64, 0.9
set origin 0, 0.06
set lmargin 26
set rmargin 2
set tmargin 2.5
set bmargin 3.5
set title "GB/s (bytes read + written / time), % of cudaMemcpy D2D" font ',12'
set xrange [0:d2d * 1.32]
set yrange [-n + 0.4:0.6]
set xtics 500
set ytics nomirror scale 0
set grid x noy
set key at screen 0.01, screen 0.05 left bottom horizontal maxrows 1 Left reverse samplen 1.5 width 2 font ',11'
plot b using (0):(-$0):(0):9:(-$0 - bw):(-$0 + bw):(colour(strcol(3))):ytic(3) with boxxyerror fs solid 0.85 noborder lc rgb variable, \
     b using 9:(-$0):(sprintf(' %.0f  (%.0f%%)', $9, $10)) with labels left font ',10', \
     NaN with boxes fs solid 0.85 lc rgb C_GOOD title 'neighbour lanes, neighbour addresses', \
     NaN with boxes fs solid 0.85 lc rgb C_BAD title 'neighbour lanes a row apart'
@nofooter

# ---- right: the naive product, GFLOP/s ----
m = rows(csv, 'matmul')
fast = field(csv, 'matmul', 'matmul_x_along_row', 13)
slow = field(csv, 'matmul', 'matmul_x_along_col', 13)
set size 0.36, 0.9
set origin 0.64, 0.06
set lmargin 2
set rmargin 3
set title sprintf("naive C = A B: GFLOP/s (%.1fx)", fast / slow) font ',12'
set xrange [-0.6:1.6]
set yrange [0:fast * 1.18]
set xtics scale 0 ("coalesced\n(x along a row)" 0, "strided\n(x down a column)" 1)
set ytics 2000 mirror
set grid y nox
set ytics format "%.0f"
unset key
set boxwidth 0.6
plot m using 0:13:(colour(strcol(3))) with boxes fs solid 0.85 noborder lc rgb variable, \
     m using 0:13:(sprintf('%.0f', $13)) with labels offset 0, 0.8 font ',11'
unset multiplot
