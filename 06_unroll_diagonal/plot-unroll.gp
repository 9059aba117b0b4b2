# Lesson 06's figure, one panel for each part of the lesson. Top left, Part 1: GB/s against the unroll
# factor U (elements per thread, all loads before the first store) for NaiveRow, NaiveCol and copyRow
# (experiment 1, rows 'unroll'), with cudaMemcpy D2D (row 'ceiling'). Top right, Part 2: the block
# orders (each kernel of experiment 2 in every order its CSV has: row-major, column-major, diagonal,
# grouped; rows 'order'). Below, Part 3: the two copies of experiment 3 (rows 'halves'), copy halves
# and copy sectors, their median time against the distance between the two halves of each piece of
# output; each point labelled with its time over the same copy's time at its shortest distance, and
# a copy's line dotted where it skips a distance of the 4x grid.
# Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# needs: unroll order halves
eval svg(900, 860)
@footer

d2d = field(csv, 'ceiling', 'cudaMemcpy D2D', 9)
# "NaiveCol x4" -> 4; no " x" -> 1
U(k) = (strstrt(k, ' x') ? real(substr(k, strstrt(k, ' x') + 2, strlen(k)) . ' ') : 1)
base(k) = (strstrt(k, ' x') ? substr(k, 1, strstrt(k, ' x') - 1) : k)

set multiplot title "Lesson 06: loads in flight per thread, the order blocks run in, and half-written sectors (8192 x 8192 floats)" font ',13'
set origin 0, 0.5
set size 0.66, 0.46
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

set origin 0.66, 0.5
set size 0.34, 0.46
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
# Part 3: "copy halves 256 KiB apart" -> copy 0 (halves) or 1 (sectors), distance in KiB, tick label
set origin 0, 0.03
set size 1, 0.47
copy(k) = (word(k, 2) eq 'halves' ? 0 : word(k, 2) eq 'sectors' ? 1 : NaN)
kib(k) = real(word(k, 3)) * (word(k, 4) eq 'GiB' ? 1048576 : word(k, 4) eq 'MiB' ? 1024 : 1)
dlabel(k) = word(k, 3) . ' ' . word(k, 4)
h = rows(csv, 'halves')
# x: log4 of the distance, so each step is 4 times as far; 0 KiB sits one step left of the nearest
stats h using (kib(strcol(3)) > 0 ? log(kib(strcol(3))) / log(4) : NaN) name 'HX' nooutput
hx(k) = (kib(k) > 0 ? log(kib(k)) / log(4) : HX_min - 1)
# each copy's time at its shortest distance: what its labels divide by
stats h using (copy(strcol(3)) == 0 ? hx(strcol(3)) : NaN) name 'H0' nooutput
stats h using (copy(strcol(3)) == 0 && hx(strcol(3)) == H0_min ? $5 : NaN) name 'T0' nooutput
stats h using (copy(strcol(3)) == 1 ? hx(strcol(3)) : NaN) name 'H1' nooutput
stats h using (copy(strcol(3)) == 1 && hx(strcol(3)) == H1_min ? $5 : NaN) name 'T1' nooutput
t0(k) = (copy(k) == 0 ? T0_mean : T1_mean)
stats h using 5 name 'HT' nooutput
# a copy's line joins its distances in file order: solid from one step of the grid to the next,
# dotted across a longer step, distances it did not run (each segment from the copy's previous
# point px, py, which row 0 resets)
seg(c) = ($0 == 0 ? (px = NaN, py = NaN) : 0, copy(strcol(3)) == c ? (x0 = px, y0 = py, px = hx(strcol(3)), py = $5, x0) : NaN)
gap(c) = (copy(strcol(3)) == c && px - x0 > 1.01)
set title "Part 3: two copies, each piece written in two halves\n(labels: time / the same copy's time at its shortest distance)"
set xlabel "distance between a piece's halves (log scale after 0)"
set ylabel "median time per copy (ms; lower is faster)"
set xrange [HX_min - 1.5:HX_max + 0.5]
set xtics () scale 0
set yrange [0:HT_max * 1.5]
set ytics 0.1 format '%.1f'
set key at graph 0.03, graph 0.98 left top Left reverse samplen 2 spacing 1.1 font ',10'
plot h using (hx(strcol(3))):(NaN):xtic(dlabel(strcol(3))) notitle, \
     h using (seg(0)):(y0):(gap(0) ? NaN : px - x0):(py - y0) with vectors nohead ls 2, \
     h using (seg(0)):(y0):(gap(0) ? px - x0 : NaN):(py - y0) with vectors nohead ls 2 dt 3, \
     h using (seg(1)):(y0):(gap(1) ? NaN : px - x0):(py - y0) with vectors nohead ls 1, \
     h using (seg(1)):(y0):(gap(1) ? px - x0 : NaN):(py - y0) with vectors nohead ls 1 dt 3, \
     h using (copy(strcol(3)) == 0 ? hx(strcol(3)) : NaN):5 with points ls 2, \
     h using (copy(strcol(3)) == 1 ? hx(strcol(3)) : NaN):5 with points ls 1, \
     NaN with linespoints ls 2 title 'copy halves: a piece is a sector (half-written sectors wait)', \
     NaN with linespoints ls 1 title 'copy sectors: each half a whole sector (only lines wait)', \
     NaN with lines ls 4 dt 3 title 'dotted: across distances that copy did not run', \
     h using (copy(strcol(3)) == 0 ? hx(strcol(3)) : NaN):5:(sprintf('%.2fx', $5 / t0(strcol(3)))) with labels offset 0, 0.9 font ',10', \
     h using (copy(strcol(3)) == 1 ? hx(strcol(3)) : NaN):5:(sprintf('%.2fx', $5 / t0(strcol(3)))) with labels offset 0, -0.9 font ',10'
unset multiplot
