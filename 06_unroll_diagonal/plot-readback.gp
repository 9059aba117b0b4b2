# Lesson 06's In depth figure, Part 3: the two copies of experiment 3 (rows 'halves'), copy halves
# and copy sectors, their median time against the distance between the two halves of each piece of
# output; each point labelled with its time over the same copy's time at its shortest distance, and
# a copy's line dotted where it skips a distance of the 4x grid. (Parts 1 and 2: unroll.svg,
# plot-unroll.gp.)
# Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# needs: halves
eval svg(900, 470)
@footer

set multiplot title "Lesson 06, In depth: half-written sectors (8192 x 8192 floats)" font ',13'
# "copy halves 256 KiB apart" -> copy 0 (halves) or 1 (sectors), distance in KiB, tick label
set origin 0, 0.03
set size 1, 0.88
set bmargin 4
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
