# Lesson 01's second figure, experiment 3 (bytes or accesses?): segments gathered per second
# against the segment size S, for the same segments read in sequential and in scattered order,
# one pair of curves per run given (csv, csv2, ...), under what the bytes alone would allow if
# every access made the L2 fetch 32 or 64 bytes at the copy's rate (cudaMemcpy D2D GB/s / bytes).
# Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are) once the CSV has
# experiment 3's rows; until then plot.sh leaves it out.
# needs: order
eval svg(900, 480)
@footer

# experiment 3's rows of one order ('sequential' or 'scattered') in file f
order_rows(f, o) = sprintf("< awk -F'\t' '$2 == \"order\" && $4 == \"ok\" && $3 ~ / %s$/' '%s'", o, f)
d2d = field(csv, 'ceiling', 'cudaMemcpy D2D', 9)
stats order_rows(csv, 'sequential') using 13 nooutput
top = STATS_max

set title "Lesson 01, experiment 3: bytes or accesses? The same segments gathered in two orders"
set xlabel "segment size S (bytes; each segment alone in its own slot of max(S, 128) bytes)"
set ylabel "G accesses/s (segments gathered per second)"
set logscale xy 2
set xrange [3:700]
set xtics ("4" 4, "8" 8, "16" 16, "32" 32, "64" 64, "128" 128, "256" 256, "512" 512)
set yrange [2:((d2d == d2d ? d2d / 32 : top) > top ? (d2d == d2d ? d2d / 32 : top) : top) * 2]
set ytics ("2" 2, "4" 4, "8" 8, "16" 16, "32" 32, "64" 64, "128" 128, "256" 256, "512" 512)
set key bottom left Left reverse spacing 1.3 width -2
set samples 1000

# the bytes' limit: the copy's GB/s spent on fetches of max(S, F) bytes per access
bytes_limit(S, F) = d2d / (S > F ? S : F)
lab(x) = (x < 10 ? fmt1(x) : fmt0(x))
runname(i, o) = (ncsv == 1 ? o : o . ': ' . csvfilename(i))

plot bytes_limit(x, 32) with lines ls 4 title sprintf('bytes limit: the copy (%.0f GB/s) in 32-byte fetches', d2d), \
     bytes_limit(x, 64) with lines lc rgb C_MODEL lw 1.2 dt 3 title sprintf('bytes limit: the copy (%.0f GB/s) in 64-byte fetches', d2d), \
     for [i=1:ncsv] order_rows(csvfile(i), 'sequential') using (after_eq(strcol(3))):13 with linespoints ls 1 title runname(i, 'sequential'), \
     for [i=1:ncsv] order_rows(csvfile(i), 'scattered') using (after_eq(strcol(3))):13 with linespoints ls 2 title runname(i, 'scattered'), \
     order_rows(csv, 'sequential') using (after_eq(strcol(3))):13:(lab($13)) with labels offset 0, 0.9 font ',10' textcolor rgb C_GOOD, \
     order_rows(csv, 'scattered') using (after_eq(strcol(3))):13:(lab($13)) with labels offset 0, -0.9 font ',10' textcolor rgb C_BAD
