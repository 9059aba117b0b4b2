# Lesson 01's figure, experiment 2: useful GB/s of the copy of the first S bytes of every 128-byte
# line against S, one curve per run given (csv, csv2, ...), next to what the bytes alone predict
# if every segment moved one 32-byte sector (the sector model, the table's model GB/s column) or
# the 64 bytes the L2 fetches per miss by default on some GPUs, both scaled to the first run's
# whole lines (S = 128 B).  Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# needs: segments
eval svg(900, 480)
@footer

g = rows(csv, 'segments')
# the first run's largest segment, whole lines: the bandwidth both models are scaled to
stats g using (after_eq(strcol(3))):9 nooutput
Smax = STATS_max_x
top = field(csv, 'segments', sprintf('S=%.0f B per line', Smax), 9)
d2d = field(csv, 'ceiling', 'cudaMemcpy D2D', 9)

set title "Lesson 01: useful GB/s of the first S bytes of every 128-byte line (the same useful bytes for every S)"
set xlabel "segment size S (bytes; one segment at the start of each 128-byte line, the lines in order)"
set ylabel "useful GB/s (useful bytes read + written / time)"
set logscale xy 2
set xrange [3:180]
set xtics ("4" 4, "8" 8, "16" 16, "32" 32, "64" 64, "128" 128)
set yrange [64:(d2d == d2d ? d2d : top) * 1.5]
set ytics ("64" 64, "128" 128, "256" 256, "512" 512, "1024" 1024, "2048" 2048, "4096" 4096)
set key bottom right Left reverse spacing 1.3 width -2
set samples 1000

# a segment of S bytes moves max(S, F) bytes read and S written, 2S of them useful
moved(S, F) = top * 2 * S / ((S > F ? S : F) + S)
runname(i) = (ncsv == 1 ? 'measured' : 'measured: ' . csvfilename(i))
runcolour(i) = word('#1f6fb4 #7b5ea7 #2e8b57 #b8860b #444444', (i - 1) % 5 + 1)

set label 1 sprintf('cudaMemcpy D2D (a copy): %.0f GB/s', d2d) at graph 0.02, first d2d left offset 0, 0.7 textcolor rgb C_COPY
plot (d2d) with lines ls 5, \
     moved(x, 32) with lines ls 4 title sprintf('sector model (scaled to S = %.0f B): a segment moves a 32-byte sector', Smax), \
     moved(x, 64) with lines lc rgb C_BAD lw 1.5 dt 3 title sprintf('the same with 64-byte L2 fetches (scaled to S = %.0f B)', Smax), \
     for [i=1:ncsv] rows(csvfile(i), 'segments') using (after_eq(strcol(3))):9 with linespoints ls 1 lc rgb runcolour(i) title runname(i), \
     g using (after_eq(strcol(3))):9:(fmt0($9)) with labels offset -1.6, 0.8 font ',10' textcolor rgb C_GOOD
