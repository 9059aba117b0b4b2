# Lesson 05's figure: GB/s of NaiveRow and NaiveCol for every block shape bx x by of the sweep
# (experiment 2), as two heat maps on one colour scale, each cell with its GB/s and the sectors per
# warp (load + store) the program computed from the addresses.  Shapes the sweep did not run stay
# blank.  Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# needs: shapes
eval svg(900, 430)
@footer

d2d = field(csv, 'ceiling', 'cudaMemcpy D2D', 9)
# "NaiveRow 32x8" -> bx = 32, by = 8; columns and rows of the map are log2 of them
bx(k) = real(substr(k, strstrt(k, ' ') + 1, strstrt(k, 'x') - 1))
by(k) = real(substr(k, strstrt(k, 'x') + 1, strlen(k)))
is(k, kind) = (strstrt(k, kind . ' ') == 1)
lg(v) = log(v) / log(2)

set multiplot title "Lesson 05: naive transposes by block shape bx x by (GB/s; in each cell: GB/s, sectors per warp load + store)" font ',13'
set palette defined (0 '#d7301f', 0.25 '#fc8d59', 0.5 '#fee08b', 0.75 '#d9ef8b', 1 '#1a9850')
set cbrange [0:d2d]
set xrange [2.5:7.5]
set yrange [2.5:5.5]
set xtics ("8" 3, "16" 4, "32" 5, "64" 6, "128" 7) scale 0
set ytics ("8" 3, "16" 4, "32" 5) scale 0
set xlabel "bx (threadIdx.x)"
set ylabel "by"
set grid nox noy
unset colorbox
set tmargin 3
set bmargin 5
set lmargin 7
set rmargin 1

do for [kind in "NaiveRow NaiveCol"] {
    if (kind eq "NaiveRow") {
        set origin 0, 0.02
        set size 0.44, 0.92
        set title "NaiveRow: reads rows, writes columns"
    } else {
        set origin 0.44, 0.02
        set size 0.56, 0.92
        set title "NaiveCol: reads columns, writes rows"
        set colorbox user origin 0.885, 0.2 size 0.02, 0.62
        set cbtics 500 font ',10'
        set cblabel "GB/s (0 to cudaMemcpy D2D)" font ",10" offset -0.5, 0
        set rmargin 15
        @nofooter
    }
    plot rows(csv, 'shapes') using (is(strcol(3), kind) ? lg(bx(strcol(3))) : NaN):(lg(by(strcol(3)))):(0.47):(0.47):9 \
             with boxxyerror fs solid 1 noborder lc palette, \
         rows(csv, 'shapes') using (is(strcol(3), kind) ? lg(bx(strcol(3))) : NaN):(lg(by(strcol(3)))):(sprintf("%.0f\n%.0f sect", $9, $13)) \
             with labels font ',10'
}
unset multiplot
