# Lesson 08's figure (part 1): every transpose of register_tiles against cudaMemcpy.  Top left: the
# register tiles by block shape (the "register" rows), with the sectors one store instruction
# touches (the program's sectors.h).  Top right: the race at both sizes (the "fastest" rows),
# 8192 x 8192 and the odd size (rows "@odd"), axis from 0.  Bottom: the race at 8192 x 8192 again
# (each kernel's first "fastest" row, no @odd row), zoomed: the axis starts at the whole % at least
# half a point under the lowest whisker, and the panel's title says where.  A dot for the median, a
# whisker for the min - max time, and shaded, the whisker of "tile64 swizzle f4", the Key result's
# winner (a whisker that reaches the shading ties with it).  Filled and numbered (1) to (4): In depth's
# float4 step, vec off ld+st -> float4 ld+st -> f4 no swizzle -> swizzle f4 (the names, in the
# script's `ladder`).  Every value is % of cudaMemcpy D2D of the same size, the core's one unit
# (the program's %D2D): the race's column 10 (the whiskers: column 10 x median / max and / min
# time, the kernel's % at its max and at its min time), and for the register tiles their GB/s
# over that of the race's first "cudaMemcpy D2D" row (8192 x 8192; its second is the odd size's).
# The race's labels give one decimal; the register tiles' give GB/s and sectors.  No measured
# value is typed in: all come from the CSV.  Drawn by `make plot` (common/plot.sh says what
# csv ... are).
# needs: register fastest
eval svg(980, 980)
@footer

bw = 0.36
set style textbox opaque noborder margins 0.5, 0.5
set multiplot title "Lesson 08: every transpose, % of cudaMemcpy D2D of the same size" font ',13'

# cudaMemcpy D2D's GB/s at 8192 x 8192: the race's first row of that name (column 9; the second
# is the odd size's)
copy = real(system(sprintf("awk -F'\t' '$2 == \"fastest\" && $3 == \"cudaMemcpy D2D\" { print $9; exit }' '%s'", all)))

# ---- top left: the register tiles (8192 x 8192) ----
r = rows(all, 'register')
stats r using 9 nooutput
n = STATS_records
set origin 0, 0.5
set size 0.45, 0.46
set lmargin 19
set rmargin 1
set bmargin 3
set tmargin 3.5
set title "4x4 (float4) register tiles, 8192 x 8192\n(label: sectors per store instruction; orange: 32)"
set xlabel "% of cudaMemcpy D2D" offset 0, 0.5
set xrange [0:130]
set xtics 0, 25, 100
set yrange [-n + 0.4:0.6]
set ytics nomirror scale 0 font ',10'
set grid x noy
colour(s) = (s > 16 ? 0xd95f02 : 0x1f6fb4)
plot r using (0):(-$0):(0):(100 * $9 / copy):(-$0 - bw):(-$0 + bw):(colour($13)):ytic(3) with boxxyerror fs solid 0.85 noborder lc rgb variable, \
     r using (100 * $9 / copy):(-$0):(sprintf(' %.0f GB/s, %.0f sect', $9, $13)) with labels left boxed font ',9'
@nofooter

# ---- top right: the race at both sizes ----
# one line per kernel: index, name, % at 8192 x 8192, % at the odd size, GB/s of each (a second
# row of the same name, as cudaMemcpy D2D has, is the odd size's)
f = sprintf("< awk -F'\t' '$2 == \"fastest\" && $4 == \"ok\" { k = $3; odd = sub(/ @odd$/, \"\", k) || (k in pm); if (!(k in i)) { i[k] = n++; name[n - 1] = k } if (odd) { po[k] = $10; go[k] = $9 } else { pm[k] = $10; gm[k] = $9 } } END { for (j = 0; j < n; j++) { k = name[j]; print j \"\t\" k \"\t\" (k in pm ? pm[k] : \"\") \"\t\" (k in po ? po[k] : \"\") \"\t\" (k in gm ? gm[k] : \"\") \"\t\" (k in go ? go[k] : \"\") } }' '%s'", all)
set xrange [*:*]
set yrange [*:*]
stats f using 1 nooutput
m = STATS_records
set origin 0.45, 0.5
set size 0.55, 0.46
set lmargin 21
set rmargin 2
set title "the race at both sizes, axis from 0\n(blue: 8192 x 8192; purple: the odd size, the @odd rows)"
set xrange [0:135]
set yrange [-m + 0.4:0.6]
unset key
h = 0.2
plot f using (0):(-$1 + h):(0):3:(-$1 + h - h * 0.9):(-$1 + h + h * 0.9):ytic(2) with boxxyerror fs solid 0.85 noborder lc rgb C_GOOD title '8192 x 8192  ', \
     f using (0):(-$1 - h):(0):4:(-$1 - h - h * 0.9):(-$1 - h + h * 0.9) with boxxyerror fs solid 0.85 noborder lc rgb C_MID title 'the odd size (@odd rows)', \
     f using 3:(-$1 + h):(sprintf(' %.1f%%', $3)) with labels left font ',9', \
     f using 4:(-$1 - h):(sprintf(' %.1f%%', $4)) with labels left font ',9'

# ---- bottom: the race at 8192 x 8192, zoomed ----
# one line per kernel (its first row, the 8192 x 8192 run's; no @odd row): index, name, % (column 10),
# the whisker's low and high end (the same % at the max and at the min time), and the kernel's step
# in In depth's float4 step (1 to 4; 0: not one of its four tiles), which also numbers its name
ladder = "tile64 vec off ld+st|tile64 float4 ld+st|tile64 f4 no swizzle|tile64 swizzle f4"
z = sprintf("< awk -F'\t' 'BEGIN { nl = split(\"%s\", L, \"|\"); for (j = 1; j <= nl; j++) step[L[j]] = j } $2 == \"fastest\" && $4 == \"ok\" && $3 !~ / @odd$/ && !seen[$3]++ { s = ($3 in step) ? step[$3] : 0; print n++ \"\t\" (s ? \"(\" s \") \" : \"\") $3 \"\t\" $10 \"\t\" $10 * $5 / $7 \"\t\" $10 * $5 / $6 \"\t\" s }' '%s'", ladder, all)
set xrange [*:*]
set yrange [*:*]
stats z using 4 nooutput
zlo = floor(STATS_min - 0.5)
stats z using 5 nooutput
zhi = ceil(STATS_max) + 1.5
mz = STATS_records
# tile64 swizzle f4's whisker (the Key result's winner): the shaded band
stats z using ($6 == 4 ? $4 : NaN) nooutput
blo = STATS_min
stats z using ($6 == 4 ? $5 : NaN) nooutput
bhi = STATS_max
set origin 0, 0.03
set size 1, 0.47
set lmargin 21
set rmargin 2
set bmargin 3.5
set tmargin 4.5
set title sprintf("the race at 8192 x 8192 zoomed: the axis starts at %.0f%%, not 0\n(dot: median; whisker: min - max time; shaded: (4) tile64 swizzle f4's min - max, a whisker reaching it ties with it)\n(filled, (1) -> (2) -> (3) -> (4): In depth's float4 step, vec off -> float4 ld+st -> f4 no swizzle -> swizzle f4)", zlo)
set xrange [zlo:zhi]
set xtics zlo, 1 format '%.0f'
set mxtics 2
set grid x mx noy lc rgb '#dddddd', lc rgb '#eeeeee'
set yrange [-mz + 0.5:0.5]
set object 1 rect from blo, -mz + 0.5 to bhi, 0.5 fc rgb C_GOOD fs transparent solid 0.15 noborder behind
plot z using 3:(-$1):4:5:ytic(2) with xerrorbars lc rgb C_GOOD pt 6 ps 0.9 lw 1.5, \
     z using ($6 > 0 ? $3 : NaN):(-$1) with points lc rgb C_GOOD pt 7 ps 1.1, \
     z using 5:(-$1):(sprintf('  %.1f%%', $3)) with labels left font ',10'
unset object 1
unset multiplot
