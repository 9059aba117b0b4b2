# Lesson 04's figure: the copies' GB/s against the bytes one SM can have in flight (the KiB/SM
# column), the one-float copies with 1 to 3 floats per thread (8 to 24 KiB/SM on the H100) and the
# float4 copies, with the course's model drawn through copyRow (Little's law with a fixed latency): at the same latency, GB/s grows in proportion to
# the bytes in flight until the copy ceiling; the knee is where that line meets cudaMemcpy.
# Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# needs: bounds in_flight
eval svg(900, 500)
@footer

d2d = field(csv, 'bounds', 'cudaMemcpy D2D', 9)
peak = field(csv, 'ceiling', 'theoretical peak', 9)
row_gbs = field(csv, 'in_flight', 'copyRow', 9)
row_kib = field(csv, 'in_flight', 'copyRow', 13)
col_gbs = field(csv, 'bounds', 'copyCol', 9)
slope = row_gbs / row_kib              # GB/s per KiB/SM at copyRow's latency
knee = d2d / slope
little(x) = (slope * x < d2d ? slope * x : 1/0)
U(k) = (strstrt(k, ' x') ? real(substr(k, strstrt(k, ' x') + 2, strlen(k)) . ' ') : 0)

set title "Lesson 04: a copy needs bytes in flight, not a different access pattern (8192 x 8192 floats)"
set xlabel "KiB per SM, log scale (resident threads x bytes each loads before its first store: the most an SM can have in flight)"
set ylabel "GB/s (bytes read + written / time)"
set logscale x 2
set xrange [2:300]
set xtics ("2" 2, "4" 4, "8" 8, "16" 16, "32" 32, "64" 64, "128" 128, "256" 256)
set yrange [0:peak * 1.08]
set ytics 500
set key at graph 0.985, graph 0.55 right top Left reverse spacing 1.2 box opaque width 1
set samples 2000

set label 1 sprintf('theoretical peak %.0f GB/s', peak) at graph 0.02, first peak left offset 0, 0.6 textcolor rgb '#777777' font ',10'
set label 2 sprintf('cudaMemcpy D2D %.0f GB/s', d2d) at graph 0.02, first d2d left offset 0, -0.9 textcolor rgb C_COPY font ',10'
set arrow 1 from knee, graph 0 to knee, first d2d nohead lc rgb C_MODEL dt 3
set label 3 sprintf("in proportion, reaches the copy at %.1f KiB/SM", knee) at knee, graph 0.04 offset 0.6, 0 font ',10' textcolor rgb C_MODEL
set label 4 sprintf("copyCol %.0f GB/s (8 KiB/SM, strided)", col_gbs) at row_kib, col_gbs right offset -1, 0 font ',10' textcolor rgb C_BAD

plot (peak) with lines ls 6, (d2d) with lines ls 5, \
     little(x) with lines lc rgb C_MODEL dt 2 lw 1 title "model: GB/s in proportion to KiB/SM, at copyRow's latency", \
     rows(csv, 'bounds') using ((strcol(3) eq 'copyCol') ? row_kib : NaN):9 with points pt 5 ps 1 lc rgb C_BAD, \
     rows(csv, 'in_flight') using ((strcol(3) eq 'copyRow') ? $13 : NaN):9 with points pt 7 ps 1.3 lc rgb C_BAD title 'copyRow: one float per thread', \
     rows(csv, 'in_flight') using (strstrt(strcol(3), 'f1 x') ? $13 : NaN):9 with linespoints lc rgb '#a6761d' lw 2 pt 13 ps 1.0 title 'floats, one pass: 1, 2, 3 per thread (f1 xU)', \
     rows(csv, 'in_flight') using (strstrt(strcol(3), 'f1 x') ? $13 : NaN):($9 + 130):(sprintf('f1 x%.0f', U(strcol(3)))) with labels font ',10' notitle, \
     rows(csv, 'in_flight') using ((strstrt(strcol(3), 'f4') && strstrt(strcol(3), 'one pass') && !strstrt(strcol(3), ' cs')) ? $13 : NaN):9 with linespoints ls 1 title 'float4, one pass (a block per tile)', \
     rows(csv, 'in_flight') using ((strstrt(strcol(3), 'grid-stride') && !strstrt(strcol(3), ' cs')) ? $13 : NaN):9 with linespoints ls 3 title 'float4, grid-stride loop', \
     rows(csv, 'in_flight') using (strstrt(strcol(3), ' cs') ? $13 : NaN):9 with points pt 6 ps 1.6 lc rgb '#333333' title '... with __ldcs/__stcs (cs)', \
     rows(csv, 'in_flight') using ((strstrt(strcol(3), 'f4') && !strstrt(strcol(3), ' cs')) ? $13 * (U(strcol(3)) == 8 ? 1.55 : 1) : NaN):($9 + (U(strcol(3)) == 8 ? -110 : strstrt(strcol(3), 'one pass') ? 110 : -130)):(U(strcol(3)) == 8 ? 'x8 (1024 threads/SM)' : sprintf('x%.0f', U(strcol(3)))) with labels font ',10'
