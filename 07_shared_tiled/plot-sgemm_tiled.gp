# Lesson 07's second figure (part 2): GFLOP/s of the naive product and the shared-memory tiled
# products (tile T x T), from sgemm_tiled's rows (GFLOP/s in the extra column).
# Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# needs: sgemm
eval svg(900, 330)
@footer

b = rows(all, 'sgemm')
stats b using 13 nooutput
n = STATS_records
best = STATS_max
# the naive row: lesson 02's matmul_x_along_row ("sgemm_naive 16x16" in runs made before it was named so)
naive_row = field_s(all, 'sgemm', 'matmul_x_along_row 16x16', 3) eq '' ? 'sgemm_naive 16x16' : 'matmul_x_along_row 16x16'
naive = field(all, 'sgemm', naive_row, 13)
# the size back from the rows: 2 N^3 flops = GFLOP/s x ms x 1e6
N = (naive * field(all, 'sgemm', naive_row, 5) * 1e6 / 2) ** (1.0 / 3)
bw = 0.34
set style textbox opaque noborder margins 0.5, 0.5

set title sprintf("Lesson 07, part 2: C = A B (FP32, M = N = K = %.0f) with shared-memory tiles", N) font ',13'
set xlabel "GFLOP/s (2 M N K / time)"
set xrange [0:best * 1.35]
set yrange [-n + 0.4:0.6]
set ytics nomirror scale 0 font ',11'
set grid x noy
set lmargin 20
set rmargin 3
set bmargin 4.5
plot b using (0):(-$0):(0):13:(-$0 - bw):(-$0 + bw):ytic(3) with boxxyerror fs solid 0.85 noborder lc rgb C_GOOD, \
     b using 13:(-$0):(sprintf(' %.0f  (%.2fx the naive kernel)', $13, $13 / naive)) with labels left boxed font ',10'
