# Lesson 08's figure (part 1): every transpose of register_tiles against the copy.  Left: the
# register tiles by block shape, with the sectors one store instruction touches (the program's
# sectors.h).  Right: the race at both sizes, 8192 x 8192 and the odd size (rows "@odd").  Every bar is
# % of the copy kernel (f4 x1 one pass, the race's first row) of the same bytes, the unit of the page:
# the race's own last column, and for the register tiles their GB/s over the copy kernel's at
# 8192 x 8192.  Drawn by `make plot` (common/plot.sh says what csv ... are).
# needs: register fastest
eval svg(980, 520)
@footer

bw = 0.36
set style textbox opaque noborder margins 0.5, 0.5
set multiplot title "Lesson 08: register tiles against the copy, % of the copy kernel (f4 x1 one pass) of the same bytes" font ',13'

# the copy kernel's GB/s at 8192 x 8192: the race's row of that name (column 9)
copy = real(system(sprintf("awk -F'\t' '$2 == \"fastest\" && $3 == \"f4 x1 one pass\" { print $9; exit }' '%s'", all)))

# ---- left: the register tiles (8192 x 8192) ----
r = rows(all, 'register')
stats r using 9 nooutput
n = STATS_records
set origin 0, 0.04
set size 0.45, 0.9
set lmargin 19
set rmargin 1
set bmargin 4
set tmargin 4
set title "4x4 (float4) register tiles, 8192 x 8192\n(label: sectors per store instruction; orange: 32)"
set xlabel "% of the copy kernel"
set xrange [0:130]
set xtics 0, 25, 100
set yrange [-n + 0.4:0.6]
set ytics nomirror scale 0 font ',10'
set grid x noy
colour(s) = (s > 16 ? 0xd95f02 : 0x1f6fb4)
plot r using (0):(-$0):(0):(100 * $9 / copy):(-$0 - bw):(-$0 + bw):(colour($13)):ytic(3) with boxxyerror fs solid 0.85 noborder lc rgb variable, \
     r using (100 * $9 / copy):(-$0):(sprintf(' %.0f GB/s, %.0f sect', $9, $13)) with labels left boxed font ',9'
@nofooter

# ---- right: the race at both sizes ----
# one line per kernel: index, name, % at 8192 x 8192, % at the odd size, GB/s of each (a second
# row of the same name, as cudaMemcpy D2D has, is the odd size's)
f = sprintf("< awk -F'\t' '$2 == \"fastest\" && $4 == \"ok\" { k = $3; odd = sub(/ @odd$/, \"\", k) || (k in pm); if (!(k in i)) { i[k] = n++; name[n - 1] = k } if (odd) { po[k] = $13; go[k] = $9 } else { pm[k] = $13; gm[k] = $9 } } END { for (j = 0; j < n; j++) { k = name[j]; print j \"\t\" k \"\t\" (k in pm ? pm[k] : \"\") \"\t\" (k in po ? po[k] : \"\") \"\t\" (k in gm ? gm[k] : \"\") \"\t\" (k in go ? go[k] : \"\") } }' '%s'", all)
set xrange [*:*]
set yrange [*:*]
stats f using 1 nooutput
m = STATS_records
set origin 0.45, 0.04
set size 0.55, 0.9
set lmargin 21
set rmargin 2
set title "the race at both sizes\n(blue: 8192 x 8192; purple: the odd size, the @odd rows)"
set xrange [0:135]
set yrange [-m + 0.4:0.6]
unset key
h = 0.2
plot f using (0):(-$1 + h):(0):3:(-$1 + h - h * 0.9):(-$1 + h + h * 0.9):ytic(2) with boxxyerror fs solid 0.85 noborder lc rgb C_GOOD title '8192 x 8192  ', \
     f using (0):(-$1 - h):(0):4:(-$1 - h - h * 0.9):(-$1 - h + h * 0.9) with boxxyerror fs solid 0.85 noborder lc rgb C_MID title 'the odd size (@odd rows)', \
     f using 3:(-$1 + h):(sprintf(' %.0f%%', $3)) with labels left font ',9', \
     f using 4:(-$1 - h):(sprintf(' %.0f%%', $4)) with labels left font ',9'
unset multiplot
