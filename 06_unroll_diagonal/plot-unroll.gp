# Lesson 06's key figure (under the README's Key result), one panel for each of Parts 1 and 2. Left,
# Part 1: GB/s against the unroll factor U (elements per thread, all loads before the first store)
# for NaiveRow, NaiveCol and copyRow (experiment 1, rows 'unroll'), with cudaMemcpy D2D (row
# 'ceiling'). Right, Part 2: the block orders (each kernel of experiment 2 in every order its CSV
# has: row-major, column-major, diagonal, grouped; rows 'order'). In depth's Part 3 (experiment 3,
# the half-written-sector copies) has its own figure, readback.svg (plot-readback.gp).
# Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# needs: unroll order
eval svg(900, 480)
@footer

d2d = field(csv, 'ceiling', 'cudaMemcpy D2D', 9)
# "NaiveCol x4" -> 4; no " x" -> 1
U(k) = (strstrt(k, ' x') ? real(substr(k, strstrt(k, ' x') + 2, strlen(k)) . ' ') : 1)
base(k) = (strstrt(k, ' x') ? substr(k, 1, strstrt(k, ' x') - 1) : k)

set multiplot title "Lesson 06: loads in flight per thread and the order blocks run in (8192 x 8192 floats)" font ',13'
set origin 0, 0.03
set size 0.66, 0.88
set bmargin 4
set title "Part 1: unrolling\nU elements per thread, all U loads before the first store"
set xlabel "U (elements per thread)"
set ylabel "GB/s (bytes read + written / time)"
set logscale x 2
set xrange [0.8:10]
set xtics ("1" 1, "2" 2, "4" 4, "8" 8)
set yrange [0:d2d * 1.15]
set ytics 500
set key at graph 0.98, graph 0.44 right top Left reverse spacing 1.0
set label 1 sprintf('cudaMemcpy D2D %.0f GB/s', d2d) at graph 0.02, first d2d left offset 0, 0.6 textcolor rgb C_COPY font ',10'
plot (d2d) with lines ls 5, \
     rows(csv, 'unroll') using (base(strcol(3)) eq 'copyRow' ? U(strcol(3)) : NaN):9 with points ls 3 pt 7 ps 1.3 title 'copyRow (a copy, measured at x1 and x4 only)', \
     rows(csv, 'unroll') using (base(strcol(3)) eq 'NaiveCol' ? U(strcol(3)) : NaN):9 with linespoints ls 1 title 'NaiveCol (strided loads)', \
     rows(csv, 'unroll') using (base(strcol(3)) eq 'NaiveRow' ? U(strcol(3)) : NaN):9 with linespoints ls 2 title 'NaiveRow (strided stores)', \
     rows(csv, 'unroll') using (U(strcol(3))):9:(fmt0($9)) with labels offset 0, 0.8 font ',9'
@nofooter
unset label 1

set origin 0.66, 0.03
set size 0.34, 0.88
set title "Part 2: block order\n(U = 1, and the orders kernel)"
unset logscale x
unset xlabel
set ylabel "GB/s"
# the kernels measured in every order, and the orders, from the row's label
kind(k) = (strstrt(k, 'NaiveRow') ? 0 : strstrt(k, ' x4 ') ? 2 : 1)
order(k) = (strstrt(k, 'row-major') ? 0 : strstrt(k, 'col-major') ? 1 : strstrt(k, 'diagonal') ? 2 : 3)
bx(k) = kind(k) + (order(k) - 1.5) * 0.2
o = rows(csv, 'order')
stats o using (kind(strcol(3))) name 'K' nooutput
nk = 1 + K_max
set xrange [-0.6:nk - 0.4]
if (nk > 2) { set xtics ("NaiveRow" 0, "NaiveCol" 1, "orders" 2) scale 0 } else { set xtics ("NaiveRow" 0, "NaiveCol" 1) scale 0 }
set yrange [0:d2d * 1.45]
set key at graph 0.03, graph 0.98 left top Left reverse samplen 1 spacing 1 font ',9'
set boxwidth 0.18
colour(k) = (order(k) == 0 ? 0x9ecae1 : order(k) == 1 ? 0x3182bd : order(k) == 2 ? 0xfdae6b : 0x74c476)
plot o using (bx(strcol(3))):9:(colour(strcol(3))) with boxes fs solid 0.85 noborder lc rgb variable notitle, \
     NaN with boxes fs solid 0.85 noborder lc rgb '#9ecae1' title 'row-major order', \
     NaN with boxes fs solid 0.85 noborder lc rgb '#3182bd' title 'column-major order', \
     NaN with boxes fs solid 0.85 noborder lc rgb '#fdae6b' title 'diagonal order', \
     NaN with boxes fs solid 0.85 noborder lc rgb '#74c476' title 'grouped order (8 x 8 tiles)', \
     o using (bx(strcol(3))):9:(fmt0($9)) with labels offset 0, 0.7 font ',8' rotate by 90 left
unset multiplot
