# Lesson 07's figure (part 1): every transpose of shared_tiled against the copy, as % of cudaMemcpy
# D2D of the same bytes, coloured by the shared-memory bank conflicts of its column read (the
# "smem ways" the program computes with banks.h; the shapes sweep reports elements per thread
# instead; experiment 4's copy twins, the tiles without the corner turn, in their own colour).  A
# kernel measured in several experiments appears once (its first row).
# Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# needs: mistake banks shapes twins
eval svg(900, 760)
@footer

b = sprintf("< awk -F'\t' '$2 ~ /^(mistake|banks|shapes|twins|odd)$/ && $4 == \"ok\" && $3 != \"cudaMemcpy D2D\" && !seen[$3]++' '%s'", all)
stats b using 10 nooutput
n = STATS_records
ways(en, e) = (en eq 'smem ways' ? e : -1)
colour(k, en, e) = (strstrt(k, 'copy ') == 1 ? 0x66a61e : en eq '' ? 0x999999 : en ne 'smem ways' ? 0x4a9c9c : e == 0 ? 0x999999 : e >= 32 ? 0xb2182b : e > 1 ? 0xef8a62 : 0x1f6fb4)
note(k, en, e) = (strstrt(k, '@odd') ? 'the odd size, against its own copy' : strstrt(k, 'copy ') == 1 ? 'copy twin, no corner turn' : en eq 'smem ways' ? (e == 0 ? 'no shared memory' : e == 1 ? '1 pass (bank arithmetic)' : sprintf('%.0f-way bank conflicts', e)) : \
               en eq 'elem/thread' ? sprintf('%.0f element%s per thread', e, e == 1 ? '' : 's') : '')
bw = 0.36
set style textbox opaque noborder margins 0.5, 0.5

set title "Lesson 07: shared-memory tiles, % of cudaMemcpy D2D (8192 x 8192 floats unless @odd)" font ',13'
set xlabel "% of cudaMemcpy D2D of the same bytes (GB/s in the label)"
set xrange [0:150]
set xtics 0, 20, 100
set yrange [-n + 0.4:0.6]
set ytics nomirror scale 0 font ',11'
set grid x noy
set lmargin 26
set rmargin 2
set arrow 1 from 100, graph 0 to 100, graph 1 nohead back ls 5
set label 1 "cudaMemcpy D2D" at 100, graph 1 center offset 0, 0.6 textcolor rgb C_COPY font ',10'
set bmargin 10
set key at screen 0.5, screen 0.135 center top Left reverse samplen 1.2 spacing 1.1 font ',10' maxrows 3 box
plot b using (0):(-$0):(0):10:(-$0 - bw):(-$0 + bw):(colour(strcol(3), strcol(12), num(13, -1))):ytic(3) with boxxyerror fs solid 0.85 noborder lc rgb variable, \
     b using 10:(-$0):(sprintf(' %.0f GB/s  %s', $9, note(strcol(3), strcol(12), num(13, -1)))) with labels left boxed font ',10', \
     NaN with boxes fs solid 0.85 lc rgb '#b2182b' title '32-way bank conflicts', \
     NaN with boxes fs solid 0.85 lc rgb '#ef8a62' title 'fewer-way conflicts', \
     NaN with boxes fs solid 0.85 lc rgb C_GOOD title '1 pass: conflict-free by the bank arithmetic', \
     NaN with boxes fs solid 0.85 lc rgb '#4a9c9c' title 'experiment 3 shapes (tile16: 2-way)', \
     NaN with boxes fs solid 0.85 lc rgb '#66a61e' title 'experiment 4: copy twins (no corner turn)', \
     NaN with boxes fs solid 0.85 lc rgb '#999999' title 'no shared memory, or the odd size (conflicts not counted)'
