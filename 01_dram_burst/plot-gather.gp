# Lesson 01's figure: useful GB/s of the segment gather against the segment size S, one curve per
# run given (csv, csv2, ...), next to what the bytes alone predict if every access moved one
# 32-byte sector, or 64 bytes (the L2 fetch the program asks for by default), scaled to the first
# run's largest S.  Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# Experiment 3 (the same segments in sequential and scattered order) is plot-order.gp's figure.
# needs: gather
eval svg(900, 480)
@footer

g = rows(csv, 'gather')
# the first run's largest segment: the bandwidth both models are scaled to
stats g using (after_eq(strcol(3))):9 nooutput
Smax = STATS_max_x
top = field(csv, 'gather', sprintf('gather S=%.0f B', Smax), 9)
d2d = field(csv, 'ceiling', 'cudaMemcpy D2D', 9)

set title "Lesson 01: useful GB/s of a scattered read by segment size (the same 64 MiB read in segments of S bytes)"
set xlabel "segment size S (bytes; each segment alone in its own 128-byte line)"
set ylabel "useful GB/s (useful bytes read / time)"
set logscale xy 2
set xrange [3:700]
set xtics ("4" 4, "8" 8, "16" 16, "32" 32, "64" 64, "128" 128, "256" 256, "512" 512)
set yrange [64:(d2d == d2d ? d2d : top) * 1.5]
set ytics ("64" 64, "128" 128, "256" 256, "512" 512, "1024" 1024, "2048" 2048, "4096" 4096)
set key bottom right Left reverse spacing 1.3 width -2
set samples 1000

sector(S) = top * (S < 32 ? S / 32.0 : 1)
fetch64(S) = top * (S < 64 ? S / 64.0 : 1)
runname(i) = (ncsv == 1 ? 'measured' : 'measured: ' . csvfilename(i))
runcolour(i) = word('#1f6fb4 #7b5ea7 #2e8b57 #b8860b #444444', (i - 1) % 5 + 1)

set label 1 sprintf('cudaMemcpy D2D (a copy): %.0f GB/s', d2d) at graph 0.02, first d2d left offset 0, 0.7 textcolor rgb C_COPY
plot (d2d) with lines ls 5, \
     sector(x) with lines ls 4 title sprintf('model (scaled to S = %.0f B): every access moves a 32-byte sector', Smax), \
     fetch64(x) with lines lc rgb C_BAD lw 1.5 dt 3 title sprintf('model (scaled to S = %.0f B): every access moves 64 bytes', Smax), \
     for [i=1:ncsv] rows(csvfile(i), 'gather') using (after_eq(strcol(3))):9 with linespoints ls 1 lc rgb runcolour(i) title runname(i), \
     g using (after_eq(strcol(3))):9:(fmt0($9)) with labels offset -1.6, 0.8 font ',10' textcolor rgb C_GOOD
