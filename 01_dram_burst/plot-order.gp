# Lesson 01's In depth figure, experiment 3 (bytes or accesses?): segments copied per second against
# the segment size S, for the same segments with the lines in sequential and in scattered order,
# one pair of curves per run given (csv, csv2, ...), under what the bytes alone would allow if every
# segment made the memory move max(S, 32) or max(S, 64) bytes read and S written at the copy's rate
# (cudaMemcpy D2D GB/s / bytes).
# Experiment 3 runs only with --order, and `make results` stores the CSV of the run without
# arguments: this figure is drawn from a CSV of an --order run given by hand, e.g.
#   ./dram_burst --order --csv > order.csv && make plot CSV=order.csv
# (common/plot.sh says what csv, out, gpu ... are); from the committed CSV it is not drawn.
# needs: line_order
eval svg(900, 480)
@footer

# experiment 3's rows of one order ('sequential' or 'scattered') in file f
order_rows(f, o) = sprintf("< awk -F'\t' '$2 == \"line_order\" && $4 == \"ok\" && $3 ~ / %s lines$/' '%s'", o, f)
d2d = field(csv, 'ceiling', 'cudaMemcpy D2D', 9)
stats order_rows(csv, 'sequential') using 13 nooutput
top = STATS_max

set title "Lesson 01, experiment 3 (In depth): bytes or accesses? The same segments copied in two orders of the lines"
set xlabel "segment size S (bytes; one segment at the start of each 128-byte line)"
set ylabel "G accesses/s (segments copied per second)"
set logscale xy 2
set xrange [3:180]
set xtics ("4" 4, "8" 8, "16" 16, "32" 32, "64" 64, "128" 128)
set yrange [2:((d2d == d2d ? d2d / 36 : top) > top ? (d2d == d2d ? d2d / 36 : top) : top) * 2]
set ytics ("2" 2, "4" 4, "8" 8, "16" 16, "32" 32, "64" 64, "128" 128, "256" 256, "512" 512)
set key bottom left Left reverse spacing 1.3 width -2
set samples 1000

# the bytes' limit: the copy's GB/s spent on max(S, F) bytes read and S written per segment
bytes_limit(S, F) = d2d / ((S > F ? S : F) + S)
lab(x) = (x < 10 ? fmt1(x) : fmt0(x))
runname(i, o) = (ncsv == 1 ? o : o . ': ' . csvfilename(i))

plot bytes_limit(x, 32) with lines ls 4 title sprintf('bytes limit: the copy (%.0f GB/s), 32-byte fetches', d2d), \
     bytes_limit(x, 64) with lines lc rgb C_MODEL lw 1.2 dt 3 title sprintf('bytes limit: the copy (%.0f GB/s), 64-byte fetches', d2d), \
     for [i=1:ncsv] order_rows(csvfile(i), 'sequential') using (after_eq(strcol(3))):13 with linespoints ls 1 title runname(i, 'sequential'), \
     for [i=1:ncsv] order_rows(csvfile(i), 'scattered') using (after_eq(strcol(3))):13 with linespoints ls 2 title runname(i, 'scattered'), \
     order_rows(csv, 'sequential') using (after_eq(strcol(3))):13:(lab($13)) with labels offset 0, 0.9 font ',10' textcolor rgb C_GOOD, \
     order_rows(csv, 'scattered') using (after_eq(strcol(3))):13:(lab($13)) with labels offset 0, -0.9 font ',10' textcolor rgb C_BAD
