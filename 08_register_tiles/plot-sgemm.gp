# Lesson 08's second figure (parts 2 and 3): GFLOP/s of the register-tiled SGEMM steps against
# cublasSgemm at the aligned size and at the unaligned one (sgemm_regtile), and the Tensor Core
# kernels (sgemm_wmma) against cublasSgemm and cublasGemmEx.  GFLOP/s is the extra column of these
# rows.  The FP32 peak is drawn when the CSV has a row "FP32 peak" (GFLOP/s in its extra column).
# Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# needs: sgemm sgemm_unaligned sgemm_wmma
eval svg(980, 440)
@footer

size(e, k) = (field(all, e, k, 13) * field(all, e, k, 5) * 1e6 / 2) ** (1.0 / 3)
N1 = size('sgemm', 'cublasSgemm (FP32)')
N2 = size('sgemm_unaligned', 'cublasSgemm (FP32)')
peak_s = system(sprintf("awk -F'\t' '$3 == \"FP32 peak\" && $13 != \"\" {print $13; exit}' '%s'", all))
fp32peak = (peak_s eq '' ? NaN : real(peak_s))
set style textbox opaque noborder margins 0.5, 0.5

set multiplot title "Lesson 08: the matrix product, GFLOP/s (2 M N K / time)" font ',13'
# ---- left: FP32, the register-tiled steps and cuBLAS at both sizes ----
f = sprintf("< awk -F'\t' '($2 == \"sgemm\" || $2 == \"sgemm_unaligned\") && $4 == \"ok\" { k = $3; if (!(k in i)) { i[k] = n++; name[n - 1] = k } if ($2 == \"sgemm\") a[k] = $13; else u[k] = $13 } END { for (j = 0; j < n; j++) { k = name[j]; print j \"\t\" k \"\t\" a[k] \"\t\" u[k] } }' '%s'", all)
stats f using 3 nooutput
m = STATS_records
top = (fp32peak == fp32peak ? fp32peak : STATS_max)
set origin 0, 0.04
set size 0.58, 0.9
set lmargin 22
set rmargin 2
set bmargin 4
set tmargin 4
cub_a = field(all, 'sgemm', 'cublasSgemm (FP32)', 13)
cub_u = field(all, 'sgemm_unaligned', 'cublasSgemm (FP32)', 13)
set title sprintf("FP32: register tiles against cuBLAS (%% of cuBLAS in brackets)\n(blue: M = N = K = %.0f; purple: %.0f, unaligned)", N1, N2)
set xlabel "GFLOP/s"
set xrange [0:top * 1.25]
set xtics 10000
set yrange [-m + 0.4:0.6]
set ytics nomirror scale 0 font ',10'
set grid x noy
unset key
h = 0.2
if (fp32peak == fp32peak) {
    set arrow 1 from fp32peak, graph 0 to fp32peak, graph 1 nohead ls 6
    set label 1 sprintf("FP32 peak %.0f", fp32peak) at fp32peak, graph 1 center offset 0, 0.6 font ',10' textcolor rgb '#777777'
}
plot f using (0):(-$1 + h):(0):3:(-$1 + h - h * 0.9):(-$1 + h + h * 0.9):ytic(2) with boxxyerror fs solid 0.85 noborder lc rgb C_GOOD, \
     f using (0):(-$1 - h):(0):4:(-$1 - h - h * 0.9):(-$1 - h + h * 0.9) with boxxyerror fs solid 0.85 noborder lc rgb C_MID, \
     f using 3:(-$1 + h):(sprintf(' %.0f (%.0f%%)', $3, 100 * $3 / cub_a)) with labels left font ',9', \
     f using 4:(-$1 - h):(sprintf(' %.0f (%.0f%%)', $4, 100 * $4 / cub_u)) with labels left font ',9'
@nofooter
unset arrow 1
unset label 1

# ---- right: Tensor Cores ----
w = rows(all, 'sgemm_wmma')
set xrange [*:*]
set yrange [*:*]
stats w using 13 nooutput
nw = STATS_records
wmax = STATS_max
N3 = size('sgemm_wmma', 'cublasSgemm (FP32)')
set origin 0.58, 0.04
set size 0.42, 0.9
set lmargin 23
set title sprintf("Tensor Cores, M = N = K = %.0f\n(half inputs, FP32 sums; log scale)", N3)
set logscale x 10
set xrange [10000:wmax * 4]
set xtics ("10k" 10000, "100k" 100000, "1M" 1000000)
set yrange [-nw + 0.4:0.6]
bw = 0.36
colour(k) = (strstrt(k, 'cublas') ? 0x999999 : 0x1f6fb4)
plot w using (10000):(-$0):(10000):13:(-$0 - bw):(-$0 + bw):(colour(strcol(3))):ytic(3) with boxxyerror fs solid 0.85 noborder lc rgb variable, \
     w using 13:(-$0):(sprintf(' %.0f', $13)) with labels left font ',9'
unset multiplot
