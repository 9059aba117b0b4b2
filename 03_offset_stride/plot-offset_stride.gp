# Lesson 03's figure: GB/s against the offset o (a[i + o] += 1) and against the stride s
# (a[i * s] += 1, log scale, with the byte-count model dashed), from the program's CSV rows.
# Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# The offset or stride is the number after '=' in the kernel label ("float s=12").
# needs: offset_float offset_double stride_float stride_double stride_float4
eval svg(960, 440)
@footer

d2d = field(csv, 'ceiling', 'cudaMemcpy D2D', 9)
stats rows(csv, 'offset_.*') using 9 nooutput
ytop = (STATS_max > d2d ? STATS_max : d2d)
ybot = 100 * floor(0.9 * STATS_min / 100)   # zoomed: the offsets move GB/s by a few %

set multiplot layout 1, 2 title "Lesson 03: GB/s = (useful bytes read + written) / time, 256 MiB per point" font ',13'
set title "misaligned start: a[i + o] += 1"
set key bottom left Left reverse
set xlabel "offset o (elements)"
set ylabel sprintf("GB/s (axis from %.0f: zoomed)", ybot)
set xrange [-1:33]
set xtics 4
set yrange [ybot:1.04 * ytop]
set label 1 sprintf('cudaMemcpy D2D %.0f', d2d) at graph 0.98, first d2d right offset 0, 0.6 textcolor rgb C_COPY font ',10'
plot rows(csv, 'offset_float') using (after_eq(strcol(3))):9 with linespoints ls 1 ps 0.6 title "float", \
     rows(csv, 'offset_double') using (after_eq(strcol(3))):9 with linespoints ls 2 ps 0.6 title "double", \
     (d2d) with lines ls 5
@nofooter
unset label 1

set title "strided: a[i * s] += 1 (dashed: the byte-count model)"
set ylabel "GB/s"
set xlabel "stride s (elements)"
set xrange [0:33]
set logscale y
set yrange [100:4000]
set ytics (100, 200, 500, 1000, 2000, 4000)
set key top right Left reverse
plot rows(csv, 'stride_float') using (after_eq(strcol(3))):9 with linespoints ls 1 ps 0.6 title "float", \
     rows(csv, 'stride_double') using (after_eq(strcol(3))):9 with linespoints ls 2 ps 0.6 title "double", \
     rows(csv, 'stride_float4') using (after_eq(strcol(3))):9 with linespoints ls 3 ps 0.6 title "float4", \
     rows(csv, 'stride_float') using (after_eq(strcol(3))):13 with lines lc rgb C_GOOD lw 1.2 dt 2 title "model (each type, dashed)", \
     rows(csv, 'stride_double') using (after_eq(strcol(3))):13 with lines lc rgb C_BAD lw 1.2 dt 2, \
     rows(csv, 'stride_float4') using (after_eq(strcol(3))):13 with lines lc rgb C_MID lw 1.2 dt 2
unset multiplot
