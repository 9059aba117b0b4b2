# Lesson 06's figure: GB/s against the unroll factor U (elements per thread, all loads before the
# first store) for NaiveRow, NaiveCol and copyRow, and the block-order experiment beside it.
# Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# needs: unroll order
eval svg(900, 450)
@footer

d2d = field(csv, 'ceiling', 'cudaMemcpy D2D', 9)
# "NaiveCol x4" -> 4; no " x" -> 1
U(k) = (strstrt(k, ' x') ? real(substr(k, strstrt(k, ' x') + 2, strlen(k)) . ' ') : 1)
base(k) = (strstrt(k, ' x') ? substr(k, 1, strstrt(k, ' x') - 1) : k)

set multiplot title "Lesson 06: loads in flight per thread, and the order blocks run in (8192 x 8192 floats)" font ',13'
set origin 0, 0.03
set size 0.66, 0.9
set bmargin 4
set title "unrolling: U elements per thread, all U loads before the first store"
set xlabel "U (elements per thread)"
set ylabel "GB/s (bytes read + written / time)"
set logscale x 2
set xrange [0.8:10]
set xtics ("1" 1, "2" 2, "4" 4, "8" 8)
set yrange [0:d2d * 1.15]
set ytics 500
set key at graph 0.98, graph 0.43 right top Left reverse spacing 1.2
set label 1 sprintf('cudaMemcpy D2D %.0f GB/s', d2d) at graph 0.02, first d2d left offset 0, 0.6 textcolor rgb C_COPY font ',10'
plot (d2d) with lines ls 5, \
     rows(csv, 'unroll') using (base(strcol(3)) eq 'copyRow' ? U(strcol(3)) : NaN):9 with linespoints ls 3 title 'copyRow (a copy)', \
     rows(csv, 'unroll') using (base(strcol(3)) eq 'NaiveCol' ? U(strcol(3)) : NaN):9 with linespoints ls 1 title 'NaiveCol (strided loads)', \
     rows(csv, 'unroll') using (base(strcol(3)) eq 'NaiveRow' ? U(strcol(3)) : NaN):9 with linespoints ls 2 title 'NaiveRow (strided stores)', \
     rows(csv, 'unroll') using (U(strcol(3))):9:(fmt0($9)) with labels offset 0, 0.8 font ',9'
@nofooter
unset label 1

set origin 0.66, 0.03
set size 0.34, 0.9
set title "block order (U = 1)"
unset logscale x
unset xlabel
set ylabel "GB/s"
set xrange [-0.6:1.6]
set xtics ("NaiveRow" 0, "NaiveCol" 1) scale 0
set key at graph 0.03, graph 0.97 left top Left reverse samplen 1.2 spacing 1.2
set boxwidth 0.35
kind(k) = (strstrt(k, 'NaiveRow') ? 0 : 1)
diag(k) = (strstrt(k, 'diagonal') > 0)
plot rows(csv, 'order') using (diag(strcol(3)) ? NaN : kind(strcol(3)) - 0.19):9 with boxes fs solid 0.85 noborder lc rgb '#9ecae1' title 'row-major order', \
     rows(csv, 'order') using (diag(strcol(3)) ? kind(strcol(3)) + 0.19 : NaN):9 with boxes fs solid 0.85 noborder lc rgb '#3182bd' title 'diagonal order', \
     rows(csv, 'order') using (kind(strcol(3)) + (diag(strcol(3)) ? 0.19 : -0.19)):9:(fmt0($9)) with labels offset 0, 0.7 font ',9'
unset multiplot
