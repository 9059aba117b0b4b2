# Lesson 01's figure, experiment 2: useful GB/s of the copy of the first S bytes of every 128-byte
# line against S, one curve per run given (csv, csv2, ...), next to what the bytes alone predict
# if DRAM moved them at the first run's cudaMemcpy rate: a 64-byte L2 fetch per segment (the fetch
# model, the table's model GB/s column at the default fetch) or one 32-byte sector (the sector
# model).  Drawn by `make plot` (common/plot.sh says what csv, out, gpu ... are).
# needs: segments
eval svg(900, 480)
@footer

g = rows(csv, 'segments')
# the first run's copy: the rate both models move their bytes at
d2d = field(csv, 'ceiling', 'cudaMemcpy D2D', 9)

set title "Lesson 01: useful GB/s of the first S bytes of every 128-byte line (the same useful bytes for every S)"
set xlabel "segment size S (bytes; one segment at the start of each 128-byte line, the lines in order)"
set ylabel "useful GB/s (useful bytes read + written / time)"
set logscale xy 2
set xrange [3:180]
set xtics ("4" 4, "8" 8, "16" 16, "32" 32, "64" 64, "128" 128)
set yrange [64:d2d * 1.5]
set ytics ("64" 64, "128" 128, "256" 256, "512" 512, "1024" 1024, "2048" 2048, "4096" 4096)
set key bottom right Left reverse spacing 1.3 width -2
set samples 1000

# a segment of S bytes moves max(S, F) bytes read and S written, 2S of them useful, at the copy's rate
moved(S, F) = d2d * 2 * S / ((S > F ? S : F) + S)
runname(i) = (ncsv == 1 ? 'measured' : 'measured: ' . csvfilename(i))
runcolour(i) = word('#1f6fb4 #7b5ea7 #2e8b57 #b8860b #444444', (i - 1) % 5 + 1)

set label 1 sprintf('cudaMemcpy D2D (a copy): %.0f GB/s', d2d) at graph 0.02, first d2d left offset 0, 0.7 textcolor rgb C_COPY
plot (d2d) with lines ls 5, \
     moved(x, 64) with lines ls 4 title 'fetch model: DRAM reads a 64-byte L2 fetch per segment, at the copy''s rate', \
     moved(x, 32) with lines lc rgb C_BAD lw 1.5 dt 3 title 'sector model: a 32-byte sector per segment, at the copy''s rate', \
     for [i=1:ncsv] rows(csvfile(i), 'segments') using (after_eq(strcol(3))):9 with linespoints ls 1 lc rgb runcolour(i) title runname(i), \
     g using (after_eq(strcol(3))):9:(fmt0($9)) with labels offset -1.6, -0.9 font ',10' textcolor rgb C_GOOD
