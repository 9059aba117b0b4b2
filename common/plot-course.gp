# The course in one chart (the root README): for each lesson, its slowest and its fastest kernel at
# the same size, as % of cudaMemcpy D2D.  "The same size": among a lesson's GB/s rows (not the
# ceilings, not cudaMemcpy itself, not the GFLOP/s rows of a matrix product, not the @odd rows), the
# bytes value most rows share (the larger on a tie).  Drawn by common/plot.sh from the course root:
#   bash common/plot.sh . NVIDIA_H100_80GB_HBM3        -> course.svg (every CSV of results/<GPU>/)
# needs: ceiling
eval svg(900, 470)
@footer

# agg(mode): mode 0, one line per lesson (index, lesson, lowest %, its kernel, highest %, its
# kernel, MiB); mode 1, one line per row of that size (index, %) for the dots
agg(mode) = sprintf("< awk -F'\t' -v mode=%d '$4 == \"ok\" && $2 != \"ceiling\" && $3 != \"cudaMemcpy D2D\" && $12 != \"GFLOP/s\" && $3 !~ / @odd$/ && $10 != \"\" { \
    key = $1 SUBSEP $8; c[key]++; q = nr++; r_l[q] = $1; r_b[q] = $8 + 0; r_p[q] = $10 + 0; \
    if (!(key in lo) || $10 + 0 < lo[key]) { lo[key] = $10 + 0; lon[key] = $3 } \
    if (!(key in hi) || $10 + 0 > hi[key]) { hi[key] = $10 + 0; hin[key] = $3 } \
    if (!($1 in seen)) { seen[$1] = 1; les[nl++] = $1 } \
    if (c[key] > best[$1] || (c[key] == best[$1] && $8 + 0 > bb[$1])) { best[$1] = c[key]; bb[$1] = $8 + 0 } } \
  END { for (a = 1; a < nl; a++) for (b = a; b > 0 && les[b - 1] > les[b]; b--) { t = les[b]; les[b] = les[b - 1]; les[b - 1] = t } \
    for (j = 0; j < nl; j++) { l = les[j]; idx[l] = j; key = l SUBSEP bb[l]; \
      if (mode == 0) printf \"%%d\\t%%s\\t%%.1f\\t%%s\\t%%.1f\\t%%s\\t%%.0f\\n\", j, l, lo[key], lon[key], hi[key], hin[key], bb[l] / 1048576 } \
    if (mode == 1) for (q = 0; q < nr; q++) if (r_b[q] == bb[r_l[q]]) printf \"%%d\\t%%.1f\\n\", idx[r_l[q]], r_p[q] }' '%s'", mode, all)
d = agg(0)
set xrange [*:*]
set yrange [*:*]
stats d using 1 nooutput
n = STATS_records

set title "The course in one chart: every kernel of each lesson at the lesson's main size, % of cudaMemcpy D2D\n(labelled: the slowest and the fastest; grey dots: the others)" font ',13'
set xlabel "% of cudaMemcpy D2D (GB/s of the same bytes: read + written / time)"
set xrange [0:115]
set xtics 0, 10, 110
set yrange [-n + 0.4:0.7]
set ytics nomirror scale 0 font ',11'
set grid x noy
set lmargin 22
set rmargin 3
set arrow 1 from 100, graph 0 to 100, graph 1 nohead ls 5
set style textbox opaque noborder margins 0.3, 0.3
plot d using 3:(-$1):($5 - $3):(0) with vectors nohead lw 6 lc rgb '#c6dbef', \
     agg(1) using 2:(-$1) with points pt 7 ps 0.5 lc rgb '#6b6b6b', \
     d using 3:(-$1):ytic(2) with points pt 7 ps 1.3 lc rgb C_BAD, \
     d using 5:(-$1) with points pt 7 ps 1.3 lc rgb C_GOOD, \
     d using 3:(-$1 - 0.3):(sprintf('%s %.0f%%', strcol(4), $3)) with labels left font ',9' textcolor rgb C_BAD, \
     d using 5:(-$1 + 0.3):(sprintf('%s %.0f%%', strcol(6), $5)) with labels right font ',9' textcolor rgb C_GOOD
